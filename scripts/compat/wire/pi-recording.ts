/**
 * Records what Pi 0.87.1 sends to one wire API: Pi runs `-p` against the fake LLM server (its
 * models.json points the built-in provider's `baseUrl` at it, the key is a fake one) and every
 * request it sends is written, with its session file, under `test/fixtures/pi-0.87.1-wire/<api>/`.
 *
 * Per run NAME: `NAME.session.jsonl` (Pi's session file) and `NAME.requests.jsonl` (one request a
 * line: method, path, headers, body). Machine paths become neutral ones (the working directory
 * `/home/dev/wire/<api>/NAME/work`, Pi's package `/opt/pi/…`, the temp root `/home/dev/temp`, the
 * kernel release in user agents `<os-release>`);
 * credential headers carry `CREDENTIAL_MARKER` instead of their value; `host` and
 * `content-length` (the server's port, the length before paths were neutralised) are left out.
 * A recording may log in through Pi's `auth.json` instead of a key variable (`authJson`, with the
 * `credential` its headers carry).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import { isCredentialHeader } from "../../../src/ai/credential-headers.ts";
import { ensurePi, type PiInstall } from "../../bench/pi-install.ts";
import type { Script, ScriptResponse } from "../../../test/helpers/fake-llm/server.ts";
import { NEUTRAL_PI_PACKAGE, OS_RELEASE_MARKER, replaceAll, runPi } from "./pi-run.ts";

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

/** What each scripted answer carries besides its words (e.g. the field the reasoning travels in). */
type AnswerExtras = Partial<ScriptResponse>;

/** The run every API is recorded on: the model thinks, reads notes.txt with the `read` tool, then answers. */
export function thinkingToolRun(name: string, model: string, thinking: string, extras: AnswerExtras = {}): WireRun {
  return {
    name,
    model,
    thinking,
    prompt: ["What does notes.txt say? Use the read tool."],
    script: [
      { thinking: "The user wants the notes. I will read the file.", ...extras, toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { thinking: "The file names the launch code.", ...extras, text: "notes.txt says the launch code is PIG-42." },
    ],
  };
}

/** The image run: `@pic.png` (a 2×2 red PNG) in the prompt; the model thinks and answers. */
export function imageRun(name: string, model: string, thinking: string, extras: AnswerExtras = {}): WireRun {
  return {
    name,
    model,
    thinking,
    prompt: ["@pic.png", "What colour is this picture?"],
    script: [{ thinking: "Two by two pixels, all red.", ...extras, text: "It is red." }],
  };
}

/** The runs the command line names (all of them when it names none): re-record one without the rest. */
export function namedOnCommandLine(runs: WireRun[]): WireRun[] {
  const only = process.argv.slice(2);
  return runs.filter((run) => only.length === 0 || only.includes(run.name));
}

export interface WireRecording {
  /** The API's name: the fixture folder. */
  api: string;
  provider: string;
  /** The environment variable of the provider's key (none when `authJson` logs in). */
  keyVariable?: string;
  /** Pi's `auth.json` for the run, e.g. an OAuth login that does not expire. */
  authJson?: Record<string, unknown>;
  /** The secret the requests carry, replaced by `CREDENTIAL_MARKER` (default `FAKE_KEY`). */
  credential?: string;
  /** The provider's base URL for a fake server at `url`. */
  baseUrl: (url: string) => string;
  runs: WireRun[];
}

function recordedHeaders(headers: Record<string, string>, credential: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === "host" || name === "content-length") continue;
    out[name] = isCredentialHeader(name, value, credential) ? value.split(credential).join(CREDENTIAL_MARKER) : value;
    if (out[name] === value && isCredentialHeader(name, value, credential)) out[name] = CREDENTIAL_MARKER;
  }
  return out;
}

async function recordRun(pi: PiInstall, recording: WireRecording, run: WireRun, outDir: string): Promise<void> {
  await runPi(
    pi,
    {
      tempPrefix: "pig-wire-",
      files: { "notes.txt": NOTES_TXT, "pic.png": PIC_PNG },
      llm: { script: run.script },
      modelsJson: (url) => ({ providers: { [recording.provider]: { baseUrl: recording.baseUrl(url) } } }),
      ...(recording.authJson ? { authJson: recording.authJson } : {}),
      args: ["-p", "--provider", recording.provider, "--model", run.model, "--thinking", run.thinking, ...run.prompt],
      env: () => (recording.keyVariable ? { [recording.keyVariable]: FAKE_KEY } : {}),
    },
    ({ root, cwd, url, requests, sessionFile, stdout }) => {
      const replacements: [string, string][] = [
        [cwd, `/home/dev/wire/${recording.api}/${run.name}/work`],
        [pi.pkgDir, NEUTRAL_PI_PACKAGE],
        [root, "/home/dev/temp"],
        [url, "http://127.0.0.1:4010"],
        // The kernel release is in Pi's user agent.
        [release(), OS_RELEASE_MARKER],
      ];
      writeFileSync(join(outDir, `${run.name}.session.jsonl`), replaceAll(readFileSync(sessionFile, "utf8"), replacements));
      const lines = requests.map((request) =>
        JSON.stringify({ method: request.method, path: request.path, headers: recordedHeaders(request.headers, recording.credential ?? FAKE_KEY), body: request.body }),
      );
      writeFileSync(join(outDir, `${run.name}.requests.jsonl`), replaceAll(`${lines.join("\n")}\n`, replacements));
      console.log(`${recording.api}/${run.name}: ${requests.length} requests; Pi said: ${stdout.trim().slice(0, 80)}`);
    },
  );
}

/** Runs every recording of `recording` with Pi 0.87.1 and writes its fixtures. */
export async function recordWire(recording: WireRecording): Promise<void> {
  const pi = ensurePi("0.87.1");
  const outDir = join(FIXTURE_ROOT, recording.api);
  mkdirSync(outDir, { recursive: true });
  for (const run of recording.runs) await recordRun(pi, recording, run, outDir);
}
