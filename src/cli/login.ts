/**
 * `pig login <provider>` and `pig logout <provider>`: subscription logins for scripts and
 * machines without a browser. What the user must do (open a URL, enter a code) goes to stderr;
 * the pasted redirect URL or code, and any other answer, is read from stdin line by line, so a
 * script can pipe it in. Exit codes: 0 signed in, 1 failed, 130 cancelled, 2 a usage mistake.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { removeAuthEntry, loadAuthFile } from "../ai/auth.ts";
import { LoginCancelled, LoginFailed, signIn, subscriptionLogins, type LoginIO, type LoginNotice, type LoginQuestion } from "../ai/oauth/index.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";
import { tidyParseError, UsageError } from "./errors.ts";
import { StdinLines } from "./stdin-lines.ts";

export const LOGIN_HELP = `Usage: pig login <provider> [--device]
       pig logout <provider>

Sign in with a subscription and store the login in <agent dir>/auth.json (mode 0600), or remove
a stored login or key. pig prints the URL to open (or the code to enter) on stderr. When the
browser runs on another machine, paste the URL it ends on (or the code it shows) on stdin.

Options:
  --device       Sign in with a device code where the provider offers one (openai-codex, radius)
  -h, --help     Show this help

Providers:
${subscriptionLogins()
  .map((login) => `  ${login.provider.padEnd(15)}${login.name}${login.flow === "device" ? " (device code)" : ""}`)
  .join("\n")}

Exit status: 0 signed in, 1 the login failed, 130 cancelled (Ctrl+C), 2 a usage mistake.
Login endpoints can be overridden for a gateway or a test server: see docs/login.md (PIG_OAUTH_ENDPOINTS).
`;

const HELP = "pig login --help";

function providersLine(): string {
  return subscriptionLogins()
    .map((login) => login.provider)
    .join(", ");
}

function parse(command: "login" | "logout", argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { device: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new UsageError(`${command}: ${tidyParseError(error)}`, HELP);
  }
}

export async function runLogin(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parse("login", argv);
  if (parsed.values.help) {
    writeStdout(LOGIN_HELP);
    return 0;
  }
  const [provider, ...extra] = parsed.positionals;
  if (!provider) throw new UsageError(`login: name the provider to sign in to (one of: ${providersLine()})`, HELP);
  if (extra.length > 0) throw new UsageError(`login: one provider at a time (got ${parsed.positionals.join(" ")})`, HELP);
  const login = subscriptionLogins().find((l) => l.provider === provider);
  if (!login) throw new UsageError(`login: "${provider}" has no subscription login; those are: ${providersLine()}`, HELP);
  const authPath = join(agentDir(env), "auth.json");
  return terminalSignIn("login", { preferDevice: parsed.values.device ?? false }, async (io) => {
    await signIn(provider, io, authPath, { env });
    return `Signed in to ${provider} (${login.name}); the login is stored in ${authPath}.`;
  });
}

export interface TerminalSignInOptions {
  preferDevice?: boolean;
  /** Ends the sign-in when it aborts (`--timeout`), reported as `limitWords`. */
  limit?: { signal: AbortSignal; words: string };
}

/**
 * Runs a sign-in with questions on stdin and notices on stderr: Ctrl+C (or SIGTERM) cancels it.
 * `run` returns the line that says it worked. The exit code: 0 done, 1 failed, 130 cancelled.
 */
export async function terminalSignIn(command: string, options: TerminalSignInOptions, run: (io: LoginIO) => Promise<string>): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const lines = new StdinLines();
  const signal = options.limit ? AbortSignal.any([controller.signal, options.limit.signal]) : controller.signal;
  try {
    writeStderr(`${terminalSafe(await run(terminalIO(lines, signal, options.preferDevice ?? false)))}\n`);
    return 0;
  } catch (error) {
    if (options.limit?.signal.aborted && !controller.signal.aborted) {
      writeStderr(`pig: ${command}: ${options.limit.words}; nothing was stored\n`);
      return 1;
    }
    if (error instanceof LoginCancelled || controller.signal.aborted) {
      writeStderr(`pig: ${command} cancelled; nothing was stored\n`);
      return 130;
    }
    if (error instanceof LoginFailed) {
      writeStderr(`pig: ${command} failed: ${terminalSafe(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    lines.close();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export async function runLogout(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parse("logout", argv);
  if (parsed.values.help) {
    writeStdout(LOGIN_HELP);
    return 0;
  }
  const authPath = join(agentDir(env), "auth.json");
  const [provider, ...extra] = parsed.positionals;
  if (!provider || extra.length > 0) {
    const stored = Object.keys(loadAuthFile(authPath).auth).sort();
    const what = stored.length > 0 ? `stored: ${stored.join(", ")}` : `nothing is stored in ${authPath}`;
    throw new UsageError(`logout: name one provider whose login or key to remove (${what})`, HELP);
  }
  if (!removeAuthEntry(authPath, provider)) {
    writeStderr(`pig: no login or key for ${provider} is stored in ${authPath}\n`);
    return 1;
  }
  writeStderr(`Removed the ${provider} login from ${authPath}.\n`);
  return 0;
}

function noticeText(notice: LoginNotice): string {
  switch (notice.kind) {
    case "open_url":
      return `${notice.instructions ?? "Open this URL in a browser:"}\n\n  ${notice.url}\n\n`;
    case "device_code": {
      const minutes = notice.expiresInSeconds ? ` (within ${Math.round(notice.expiresInSeconds / 60)} min)` : "";
      return `Open ${notice.verificationUri} and enter the code${minutes}:\n\n  ${notice.userCode}\n\n`;
    }
    case "info":
      return `${notice.message}${notice.links?.length ? `\n${notice.links.map((l) => `  ${l.label ? `${l.label}: ` : ""}${l.url}`).join("\n")}` : ""}\n`;
    case "progress":
      return `${notice.message}\n`;
  }
}

/** Questions answered by lines on stdin; a pasted code that never comes leaves the browser path waiting. */
function terminalIO(lines: StdinLines, signal: AbortSignal, preferDevice: boolean): LoginIO {
  return {
    signal,
    tell: (notice) => writeStderr(noticeText(notice)),
    async ask(question: LoginQuestion): Promise<string> {
      if (question.kind === "select") {
        const device = question.options.find((o) => /device/i.test(o.id));
        const chosen = (preferDevice && device) || question.options[0];
        if (!chosen) throw new LoginFailed(`${question.message}: there is nothing to choose`);
        writeStderr(`${question.message} ${chosen.label}${device && !preferDevice ? " (--device for the device code)" : ""}\n`);
        return chosen.id;
      }
      writeStderr(`${question.message}${question.placeholder && question.kind !== "pasted_code" ? ` (${question.placeholder})` : ""}\n`);
      const stop = question.signal ? AbortSignal.any([question.signal, signal]) : signal;
      let line = await lines.next(stop);
      // A blank line is an answer ("blank for github.com"), but not a pasted code.
      while (question.kind === "pasted_code" && line !== undefined && !line.trim()) line = await lines.next(stop);
      if (line !== undefined) return line;
      if (stop.aborted) throw new LoginCancelled();
      // stdin ended: a pasted code will not come (the browser may still call back); other questions get a blank answer.
      if (question.kind === "pasted_code") return new Promise<string>((_, reject) => stop.addEventListener("abort", () => reject(new LoginCancelled()), { once: true }));
      return "";
    },
  };
}
