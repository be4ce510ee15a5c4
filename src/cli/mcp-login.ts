/**
 * `pig mcp login <server>` and `pig mcp logout <server>`: signing in to an OAuth-protected MCP
 * server from a shell, as `pig login` does for providers — the page to open goes to stderr, and
 * the redirect URL from a browser on another machine is read from stdin. Exit codes: 0 signed in
 * (or out), 1 failed, 130 cancelled, 2 a usage mistake.
 */
import { parseArgs } from "node:util";
import { loadMcpConfig, type ConfiguredServer } from "../mcp/config.ts";
import { mcpConfigPaths } from "../mcp/paths.ts";
import { oauthServer } from "../mcp/oauth/configured.ts";
import { mcpAuthStore, signInToMcpServer, signOutOfMcpServer, type McpOAuthServer } from "../mcp/oauth/index.ts";
import { decideTrust } from "../resources/trust.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";
import { terminalSignIn } from "./login.ts";

export const MCP_LOGIN_HELP = `Usage: pig mcp login <server> [-l] [--timeout <seconds>]
       pig mcp logout <server> [-l]

Sign in to an MCP server that uses OAuth, or delete its stored sign-in. pig prints the page to
open on stderr and waits for the browser; when the browser runs on another machine, paste the
URL it ends on on stdin. Sign-ins are stored in <agent dir>/mcp-auth.json (mode 0600).

Options:
  -l, --local          The server must be defined in the project's .pig/mcp.json
  --timeout <seconds>  Give up the whole sign-in after this long (default 300)
  -h, --help           Show this help

Exit status: 0 done, 1 failed, 130 cancelled (Ctrl+C), 2 a usage mistake.
`;

const HELP = "pig mcp login --help";
const DEFAULT_TIMEOUT_S = 300;

interface Invocation {
  name: string;
  local: boolean;
  timeout: string | undefined;
}

/** The server named on the command line and the options; undefined after printing the help. */
function parse(command: "login" | "logout", argv: string[]): Invocation | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { local: { type: "boolean", short: "l" }, timeout: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw new UsageError(`mcp ${command}: ${tidyParseError(error)}`, HELP);
  }
  if (parsed.values.help) {
    writeStdout(MCP_LOGIN_HELP);
    return undefined;
  }
  const [name, ...extra] = parsed.positionals;
  if (!name || extra.length > 0) throw new UsageError(`mcp ${command}: name one MCP server to sign ${command === "login" ? "in to" : "out of"}`, HELP);
  if (command === "logout" && parsed.values.timeout !== undefined) throw new UsageError("mcp logout: --timeout is an option of mcp login", HELP);
  return { name, local: parsed.values.local ?? false, timeout: parsed.values.timeout };
}

/** Server `name` as mcp.json defines it (the project's file only when the project is trusted). */
async function findServer(command: "login" | "logout", name: string, local: boolean, env: NodeJS.ProcessEnv, cwd: string): Promise<McpOAuthServer> {
  const dir = agentDir(env);
  const trust = await decideTrust({ cwd, agentDir: dir, interactive: false });
  if (local && !trust.trusted) throw new CliError(`mcp ${command} -l: ${trust.project} is not a trusted project, so pig does not read its .pig/mcp.json`);
  const loaded = loadMcpConfig(dir, cwd, trust.trusted);
  const found: ConfiguredServer | undefined = loaded.servers.find((server) => server.name === name);
  const paths = mcpConfigPaths(dir, cwd, trust.trusted);
  if (!found || (local && found.source !== paths.project && found.override !== paths.project)) {
    const problem = loaded.errors.find((error) => error.includes(`"${name}"`));
    const where = local ? paths.project : [paths.user, paths.project].filter(Boolean).join(" or ");
    throw new CliError(problem ?? `mcp ${command}: no MCP server "${name}" in ${where}`);
  }
  const server = oauthServer(name, found.config);
  if (typeof server === "string") throw new CliError(`mcp ${command}: ${server}`);
  return server;
}

function timeoutOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_S;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`mcp login: --timeout must be a positive number of seconds, not "${value}"`, HELP);
  return seconds;
}

export async function runMcpLogin(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const invoked = parse("login", argv);
  if (!invoked) return 0;
  const { name } = invoked;
  const seconds = timeoutOf(invoked.timeout);
  const server = await findServer("login", name, invoked.local, env, cwd);
  const store = mcpAuthStore(agentDir(env));
  const limit = { signal: AbortSignal.timeout(seconds * 1000), words: `gave up after ${seconds} s (--timeout)` };
  return terminalSignIn("mcp login", { limit }, async (io) => {
    const result = await signInToMcpServer(server, { store, io, env });
    const how = result === "refreshed" ? " with the stored refresh token" : "";
    return `Signed in to MCP server "${name}"${how}; the sign-in is stored in ${store.path}.`;
  });
}

export async function runMcpLogout(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const invoked = parse("logout", argv);
  if (!invoked) return 0;
  const { name } = invoked;
  const server = await findServer("logout", name, invoked.local, env, cwd);
  const store = mcpAuthStore(agentDir(env));
  if (!signOutOfMcpServer(store, server)) {
    writeStderr(terminalSafe(`pig: no sign-in of MCP server "${name}" is stored in ${store.path}\n`));
    return 1;
  }
  writeStderr(terminalSafe(`Signed out of MCP server "${name}": its tokens and registered client are deleted from ${store.path}.\n`));
  return 0;
}
