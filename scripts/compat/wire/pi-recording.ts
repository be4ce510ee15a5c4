/**
 * Records what Pi 0.87.1 sends to one wire API: Pi runs `-p` against the fake LLM server (its
 * models.json points the built-in provider's `baseUrl` at it, the key is a fake one) and every
 * request it sends is written, with its session file, under `test/fixtures/pi-0.87.1-wire/<api>/`.
 *
 * Per run NAME: `NAME.session.jsonl` (Pi's session file) and `NAME.requests.jsonl` (one request a
 * line: method, path, headers, body). Machine paths become neutral ones (the working directory
 * `/home/dev/wire/<api>/NAME/work`, Pi's package `/opt/pi/…`, the temp root `/home/dev/temp`);
 * credential headers carry `CREDENTIAL_MARKER` instead of their value; `host` and
 * `content-length` (the server's port, the length before paths were neutralised) are left out.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCredentialHeader } from "../../../src/ai/credential-headers.ts";
import { ensurePi, type PiInstall } from "../../bench/pi-install.ts";
import { startFakeLlm, type Script } from "../../../test/helpers/fake-llm/server.ts";

export const CREDENTIAL_MARKER = "<credential>";
export const FAKE_KEY = "fake-wire-key-0123456789";
export const FIXTURE_ROOT = join(import.meta.dir, "..", "..", "..", "test", "fixtures", "pi-0.87.1-wire");

/** A 2×2 red PNG: the image a prompt carries with `@pic.png`. */
export const PIC_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);
export const NOTES_TXT = "The launch code is PIG-42.\n";

export interface WireRun {
  /** File name stem of the fixtures. */
  name: string;
  model: string;
  thinking: string;
  /** Pi's arguments after the options: the prompt, `@pic.png`. */
  prompt: string[];
  script: Script;
}

export interface WireRecording {
  /** The API's name: the fixture folder. */
  api: string;
  provider: string;
  /** The environment variable of the provider's key. */
  keyVariable: string;
  /** The provider's base URL for a fake server at `url`. */
  baseUrl: (url: string) => string;
  runs: WireRun[];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function neutral(text: string, replacements: [string, string][]): string {
  let out = text;
  for (const [from, to] of replacements) out = out.split(from).join(to);
  return out;
}

function recordedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === "host" || name === "content-length") continue;
    out[name] = isCredentialHeader(name, value, FAKE_KEY) ? value.split(FAKE_KEY).join(CREDENTIAL_MARKER) : value;
    if (out[name] === value && isCredentialHeader(name, value, FAKE_KEY)) out[name] = CREDENTIAL_MARKER;
  }
  return out;
}

async function recordRun(pi: PiInstall, recording: WireRecording, run: WireRun, outDir: string): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "pig-wire-"));
  try {
    const agentDir = join(root, "agent");
    const cwd = join(root, "work");
    mkdirSync(agentDir);
    mkdirSync(cwd);
    writeFileSync(join(cwd, "notes.txt"), NOTES_TXT);
    writeFileSync(join(cwd, "pic.png"), PIC_PNG);
    const llm = await startFakeLlm({ script: run.script });
    try {
      const models = { providers: { [recording.provider]: { baseUrl: recording.baseUrl(llm.url) } } };
      writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
      writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, enableInstallTelemetry: false }));
      const argv = [...pi.cmd, "-p", "--provider", recording.provider, "--model", run.model, "--thinking", run.thinking, ...run.prompt];
      const env = {
        PATH: `${pi.nodeBinDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        HOME: agentDir,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
        [recording.keyVariable]: FAKE_KEY,
      };
      const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`${run.name}: Pi exited with ${code}\n${stdout}\n${stderr}`);
      const sessions = filesUnder(join(agentDir, "sessions")).filter((file) => file.endsWith(".jsonl"));
      if (sessions.length !== 1) throw new Error(`${run.name}: expected one session file, found ${sessions.length}`);
      const replacements: [string, string][] = [
        [cwd, `/home/dev/wire/${recording.api}/${run.name}/work`],
        [pi.pkgDir, "/opt/pi/node_modules/@earendil-works/pi-coding-agent"],
        [root, "/home/dev/temp"],
        [llm.url, "http://127.0.0.1:4010"],
      ];
      writeFileSync(join(outDir, `${run.name}.session.jsonl`), neutral(readFileSync(sessions[0]!, "utf8"), replacements));
      const lines = llm.requests.map((request) =>
        JSON.stringify({ method: request.method, path: request.path, headers: recordedHeaders(request.headers), body: request.body }),
      );
      writeFileSync(join(outDir, `${run.name}.requests.jsonl`), neutral(`${lines.join("\n")}\n`, replacements));
      console.log(`${recording.api}/${run.name}: ${llm.requests.length} requests; Pi said: ${stdout.trim().slice(0, 80)}`);
    } finally {
      await llm.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs every recording of `recording` with Pi 0.87.1 and writes its fixtures. */
export async function recordWire(recording: WireRecording): Promise<void> {
  const pi = ensurePi("0.87.1");
  const outDir = join(FIXTURE_ROOT, recording.api);
  mkdirSync(outDir, { recursive: true });
  for (const run of recording.runs) await recordRun(pi, recording, run, outDir);
}
