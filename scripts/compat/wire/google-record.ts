// Records what Pi 0.87.1 sends to a Google API (shared by google-generative-ai.ts and
// google-vertex.ts next to this file): Pi runs `-p` against the fake LLM server with the built-in
// provider's baseUrl pointed at it, once on a conversation where the model thinks, reads a file
// and answers, once with an image in the prompt. Each run's session file and every request (method,
// path, headers with credential values replaced by a marker, body) go to
// test/fixtures/pi-0.87.1-wire/<api>/.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isCredentialHeader } from "../../../src/ai/credential-headers.ts";
import type { Script } from "../../../test/helpers/fake-llm/server.ts";
import { ensurePi } from "../../bench/pi-install.ts";
import { maskOsRelease, replaceAll, runPi } from "./pi-run.ts";

export const CREDENTIAL_MARKER = "<credential>";
/** The temp root as the fixtures show it. */
const NEUTRAL_ROOT = "/home/dev/wire";
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
    await runPi(
      pi,
      {
        tempPrefix: `pig-wire-${options.api}-`,
        files: { "notes.txt": "hello from the notes file\n", "pic.png": PICTURE },
        llm: { script: run.script },
        modelsJson: (url) => ({ providers: { [options.provider]: { baseUrl: options.baseUrl(url) } } }),
        args: ["-p", "--model", `${options.provider}/${options.model}`, "--thinking", options.thinking, ...run.prompt],
        env: () => options.env,
        home: "root",
      },
      ({ root, requests, sessionFile, stdout }) => {
        console.log(`${options.api} ${run.name}: ${requests.length} requests; Pi said: ${stdout.trim()}`);
        // The temp root and the kernel release (in Pi's user agent) would differ on every machine.
        const neutral = (text: string) => maskOsRelease(replaceAll(text, [[root, NEUTRAL_ROOT]]));
        writeFileSync(join(out, `${run.name}.jsonl`), neutral(readFileSync(sessionFile, "utf8")));
        const lines = requests.map((r) =>
          JSON.stringify({ seq: r.seq, method: r.method, path: r.path, headers: redactedHeaders(r.headers), body: r.body, served: r.served }),
        );
        writeFileSync(join(out, `${run.name}.requests.jsonl`), neutral(`${lines.join("\n")}\n`));
        writeFileSync(join(out, `${run.name}.script.json`), `${JSON.stringify(run.script, null, 2)}\n`);
      },
    );
  }
}
