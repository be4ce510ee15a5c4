/**
 * One run of Pi 0.87.1 (`pi -p …`) in a world of its own, for the wire recorders next to this
 * file: a temp root with Pi's agent dir and a working directory holding the run's files, the fake
 * LLM server, models.json (and auth.json) pointing the provider at it, Pi started quiet and
 * offline. `use` gets what the run left (its requests, its session file, what it printed) while
 * the world still exists; afterwards the server is closed and the root removed.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { release, tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm, type FakeLlmOptions, type RecordedRequest } from "../../../test/helpers/fake-llm/server.ts";
import type { PiInstall } from "../../bench/pi-install.ts";

/** Pi's path in the fixtures, wherever it was installed. */
export const NEUTRAL_PI_PACKAGE = "/opt/pi/node_modules/@earendil-works/pi-coding-agent";
/** What the fixtures carry in place of the machine's kernel release (in Pi's user agents). */
export const OS_RELEASE_MARKER = "<os-release>";

export interface PiRunSpec {
  /** Prefix of the temp root's name. */
  tempPrefix: string;
  /** Files of the working directory, by name. */
  files: Record<string, string | Uint8Array>;
  /** The fake LLM server's options (its script, …). */
  llm: FakeLlmOptions;
  /** The models.json that points the provider at the fake server. */
  modelsJson(url: string): object;
  /** The exact text of settings.json (formatting differs between recorders; it is not a fixture). */
  settingsJson?: string;
  authJson?: object;
  /** Pi's arguments after its command. */
  args: string[];
  /** Variables of the run besides Pi's quiet ones (keys, regions). */
  env?: (url: string) => Record<string, string>;
  /** HOME of the run: the agent dir (default) or the temp root. */
  home?: "agent" | "root";
}

export interface PiRunResult {
  root: string;
  agentDir: string;
  cwd: string;
  /** The fake server's base URL. */
  url: string;
  requests: RecordedRequest[];
  /** The one session file Pi wrote. */
  sessionFile: string;
  stdout: string;
}

/** `text` with each `from` replaced by its `to` (empty `from`s skipped). */
export function replaceAll(text: string, replacements: readonly (readonly [string, string])[]): string {
  return replacements.reduce((out, [from, to]) => (from ? out.split(from).join(to) : out), text);
}

/** `text` with the machine's kernel release masked. */
export function maskOsRelease(text: string): string {
  return text.split(release()).join(OS_RELEASE_MARKER);
}

function onlySessionFile(agentDir: string): string {
  const dir = join(agentDir, "sessions");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"));
  if (files.length !== 1) throw new Error(`expected one session file under ${dir}, found ${files.length}`);
  return join(files[0]!.parentPath, files[0]!.name);
}

/** Runs Pi once as `spec` says and hands the outcome to `use`; throws with Pi's output when Pi fails. */
export async function runPi<T>(pi: PiInstall, spec: PiRunSpec, use: (result: PiRunResult) => T | Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), spec.tempPrefix));
  try {
    const agentDir = join(root, "agent");
    const cwd = join(root, "work");
    mkdirSync(agentDir);
    mkdirSync(cwd);
    for (const [name, content] of Object.entries(spec.files)) writeFileSync(join(cwd, name), content);
    const llm = await startFakeLlm(spec.llm);
    try {
      writeFileSync(join(agentDir, "models.json"), JSON.stringify(spec.modelsJson(llm.url), null, 2));
      writeFileSync(join(agentDir, "settings.json"), spec.settingsJson ?? JSON.stringify({ quietStartup: true, enableInstallTelemetry: false }));
      if (spec.authJson) writeFileSync(join(agentDir, "auth.json"), JSON.stringify(spec.authJson, null, 2), { mode: 0o600 });
      const env = {
        PATH: `${pi.nodeBinDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        HOME: spec.home === "root" ? root : agentDir,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
        ...spec.env?.(llm.url),
      };
      const proc = Bun.spawn([...pi.cmd, ...spec.args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`Pi exited ${code} (${spec.args.join(" ")})\nstdout: ${stdout}\nstderr: ${stderr.slice(-2000)}`);
      return await use({ root, agentDir, cwd, url: llm.url, requests: llm.requests, sessionFile: onlySessionFile(agentDir), stdout });
    } finally {
      await llm.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
