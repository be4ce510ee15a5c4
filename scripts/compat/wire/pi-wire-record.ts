// Records what Pi 0.87.1 sends to one provider: Pi runs `-p` against the in-process fake LLM
// server (models.json points the provider at it), and its session file and every request it sent
// are written under test/fixtures/pi-0.87.1-wire/<name>/. Credentials are replaced by a marker.
// Used by the scripts next to this file; Pi is installed into a temp dir by scripts/bench/pi-install.ts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlm, type RecordedRequest, type Script } from "../../../test/helpers/fake-llm/server.ts";
import { ensurePi, type PiInstall } from "../../bench/pi-install.ts";

const REPO = resolve(import.meta.dir, "..", "..", "..");
export const WIRE_FIXTURES = join(REPO, "test", "fixtures", "pi-0.87.1-wire");
/** What every credential value is replaced with in the saved headers. */
export const CREDENTIAL_MARKER = "[credential]";
/** The neutral working directory written into the saved files. */
export const NEUTRAL_CWD = "/home/dev/wire/work";

/** A 2×2 red PNG: the picture of the image runs. */
export const PIC_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

/** The conversation of every recording: the model thinks, reads a file of the cwd, answers. */
export const TOOL_SCRIPT: Script = {
  responses: [
    { thinking: "The user wants the notes; I should read notes.txt first.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
    { thinking: "The file says hello from the notes.", text: "The notes say: hello from the notes." },
  ],
};
export const IMAGE_SCRIPT: Script = { responses: [{ thinking: "A small red square.", text: "It is a red square." }] };

export interface Run {
  name: string;
  /** Pi's arguments after `-p`-mode options: the prompt and `@file`s. */
  args: string[];
  script: Script;
}

export interface Recording {
  /** The fixture folder: test/fixtures/pi-0.87.1-wire/<dir>/. */
  dir: string;
  provider: string;
  modelId: string;
  thinking: string;
  /** The models.json that points the provider at the fake server. */
  modelsJson(url: string): object;
  authJson?: object;
  env?: (url: string) => Record<string, string>;
  /** Values never to be written: keys and tokens. */
  secrets: string[];
  runs: Run[];
  /** Text for the fixtures' README: how these requests were made. */
  readme: string;
}

function piEnv(pi: PiInstall, agentDir: string): Record<string, string> {
  return {
    PATH: `${pi.nodeBinDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: agentDir,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
  };
}

function neutral(value: unknown, replace: [string, string][]): unknown {
  if (typeof value === "string") return replace.reduce((text, [from, to]) => (from ? text.split(from).join(to) : text), value);
  if (Array.isArray(value)) return value.map((v) => neutral(v, replace));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, neutral(v, replace)]));
  return value;
}

function sessionFile(agentDir: string): string {
  const dir = join(agentDir, "sessions");
  const found = readdirSync(dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile() && d.name.endsWith(".jsonl"));
  if (!found) throw new Error(`Pi wrote no session file under ${dir}`);
  return join(found.parentPath, found.name);
}

/** Runs every run of `recording` under Pi 0.87.1 and writes the fixtures; throws naming the run that failed. */
export async function record(recording: Recording): Promise<void> {
  const pi = ensurePi("0.87.1");
  const out = join(WIRE_FIXTURES, recording.dir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const run of recording.runs) {
    const root = mkdtempSync(join(tmpdir(), "pig-wire-record-"));
    const llm = await startFakeLlm({ script: run.script });
    try {
      const agentDir = join(root, "agent");
      const cwd = join(root, "work");
      mkdirSync(agentDir);
      mkdirSync(cwd);
      writeFileSync(join(cwd, "notes.txt"), "hello from the notes\n");
      writeFileSync(join(cwd, "pic.png"), PIC_PNG);
      writeFileSync(join(agentDir, "models.json"), JSON.stringify(recording.modelsJson(llm.url), null, 2));
      writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, enableInstallTelemetry: false }, null, 2));
      if (recording.authJson) writeFileSync(join(agentDir, "auth.json"), JSON.stringify(recording.authJson, null, 2), { mode: 0o600 });
      const argv = [...pi.cmd, "--model", `${recording.provider}/${recording.modelId}`, "--thinking", recording.thinking, "-p", ...run.args];
      const proc = Bun.spawn(argv, { cwd, env: { ...piEnv(pi, agentDir), ...recording.env?.(llm.url) }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`${recording.dir}/${run.name}: Pi exited ${code}\n${stderr.slice(-2000)}`);
      const port = new URL(llm.url).port;
      const replace: [string, string][] = [
        ...recording.secrets.map((secret): [string, string] => [secret, CREDENTIAL_MARKER]),
        [cwd, NEUTRAL_CWD],
        [root, "/home/dev/wire"],
        [pi.pkgDir, "/opt/pi/node_modules/@earendil-works/pi-coding-agent"],
        [`127.0.0.1:${port}`, "127.0.0.1:PORT"],
      ];
      const requests = llm.requests.map((r: RecordedRequest) => ({ seq: r.seq, api: r.api, method: r.method, path: r.path, ...(r.query ? { query: r.query } : {}), headers: r.headers, body: r.body }));
      writeFileSync(join(out, `${run.name}.requests.jsonl`), requests.map((r) => JSON.stringify(neutral(r, replace))).join("\n") + "\n");
      const session = readFileSync(sessionFile(agentDir), "utf8");
      writeFileSync(join(out, `${run.name}.session.jsonl`), session.split("\n").map((line) => (line ? JSON.stringify(neutral(JSON.parse(line), replace)) : line)).join("\n"));
      writeFileSync(join(out, `${run.name}.stdout.txt`), stdout);
      console.log(`recorded ${recording.dir}/${run.name}: ${requests.length} requests`);
    } finally {
      await llm.close();
      rmSync(root, { recursive: true, force: true });
    }
  }
  const catalogue = join(pi.dir, "node_modules", "@earendil-works", "pi-ai", "dist", "providers", "data", `${recording.provider}.json`);
  const data = JSON.parse(readFileSync(catalogue, "utf8")) as Record<string, Record<string, unknown>>;
  // The catalogue groups a provider's models by API.
  const model = Object.values(data).find((models) => models[recording.modelId])?.[recording.modelId];
  if (!model) throw new Error(`${recording.provider}/${recording.modelId} is not in Pi 0.87.1's catalogue (${catalogue})`);
  writeFileSync(join(out, "model.json"), `${JSON.stringify(model, null, 2)}\n`);
  writeFileSync(join(out, "README.md"), recording.readme);
}
