// Records what Pi 0.87.1 sends to a Google API (shared by google-generative-ai.ts and
// google-vertex.ts next to this file): Pi runs `-p` against the fake LLM server with the built-in
// provider's baseUrl pointed at it, once on a conversation where the model thinks, reads a file
// and answers, once with an image in the prompt. Each run's session file and every request (method,
// path, headers with credential values replaced by a marker, body) go to
// test/fixtures/pi-0.87.1-wire/<api>/.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isCredentialHeader } from "../../../src/ai/credential-headers.ts";
import { startFakeLlm, type RecordedRequest, type Script } from "../../../test/helpers/fake-llm/server.ts";
import { ensurePi, piEnv } from "../../bench/pi-install.ts";

export const CREDENTIAL_MARKER = "<credential>";
/** A 4×4 red PNG. */
const PICTURE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==", "base64");

export interface WireRun {
  name: string;
  prompt: string[];
  script: Script;
}

/** The two runs every API is recorded with. */
export const RUNS: WireRun[] = [
  {
    name: "tools",
    prompt: ["Read notes.txt and tell me what it says."],
    script: [
      { thinking: "The user wants notes.txt. I will read it.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { thinking: "The file holds one line of greeting.", text: "notes.txt says: hello from the notes file." },
    ],
  },
  {
    name: "image",
    prompt: ["@pic.png", "What colour is this picture?"],
    script: [{ thinking: "A tiny picture, all red.", text: "It is red." }],
  },
];

export interface RecordOptions {
  api: string;
  provider: string;
  model: string;
  thinking: string;
  /** The baseUrl models.json gives the provider, from the fake server's URL. */
  baseUrl: (url: string) => string;
  /** The credential variables of the run. */
  env: Record<string, string>;
}

function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isCredentialHeader(name, value, undefined) ? CREDENTIAL_MARKER : value;
  return out;
}

export async function recordGoogleWire(options: RecordOptions): Promise<void> {
  const pi = ensurePi("0.87.1");
  const out = resolve(import.meta.dir, "..", "..", "..", "test", "fixtures", "pi-0.87.1-wire", options.api);
  mkdirSync(out, { recursive: true });
  for (const run of RUNS) {
    const root = mkdtempSync(join(tmpdir(), `pig-wire-${options.api}-`));
    const agentDir = join(root, "agent");
    const cwd = join(root, "work");
    mkdirSync(agentDir);
    mkdirSync(cwd);
    writeFileSync(join(cwd, "notes.txt"), "hello from the notes file\n");
    writeFileSync(join(cwd, "pic.png"), PICTURE);
    const requests: RecordedRequest[] = [];
    const llm = await startFakeLlm({ script: run.script, onRequest: (request) => requests.push(request) });
    try {
      writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { [options.provider]: { baseUrl: options.baseUrl(llm.url) } } }, null, 2));
      writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, enableInstallTelemetry: false }));
      const cmd = [...pi.cmd, "-p", "--model", `${options.provider}/${options.model}`, "--thinking", options.thinking, ...run.prompt];
      const env = { ...piEnv(pi, agentDir), HOME: root, ...options.env } as Record<string, string>;
      const proc = Bun.spawn(cmd, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`Pi failed (${code}) on ${run.name}:\n${stdout}\n${stderr}`);
      console.log(`${options.api} ${run.name}: ${requests.length} requests; Pi said: ${stdout.trim()}`);
      const sessions = join(agentDir, "sessions");
      const folder = readdirSync(sessions)[0]!;
      const file = readdirSync(join(sessions, folder)).find((name) => name.endsWith(".jsonl"))!;
      copyFileSync(join(sessions, folder, file), join(out, `${run.name}.jsonl`));
      const lines = requests.map((r) =>
        JSON.stringify({ seq: r.seq, method: r.method, path: r.path, headers: redactedHeaders(r.headers), body: r.body, served: r.served }),
      );
      writeFileSync(join(out, `${run.name}.requests.jsonl`), `${lines.join("\n")}\n`);
      writeFileSync(join(out, `${run.name}.script.json`), `${JSON.stringify(run.script, null, 2)}\n`);
    } finally {
      await llm.close();
      rmSync(root, { recursive: true, force: true });
    }
  }
}
