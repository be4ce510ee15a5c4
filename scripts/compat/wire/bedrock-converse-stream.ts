// Records what Pi 0.87.1 sends to Amazon Bedrock (ConverseStream) for one scripted conversation,
// against the fake LLM server, into test/fixtures/pi-0.87.1-wire/bedrock-converse-stream/.
//
//   node_modules/.bin/bun scripts/compat/wire/bedrock-converse-stream.ts
//
// Two runs of `pi -p` with the built-in provider `amazon-bedrock` (its baseUrl moved to the fake
// server by models.json) and Claude Sonnet 4.5 at thinking level high, signing with AWS's public
// example credentials: "tool" (the model thinks, reads notes.txt, answers) and "image" (the prompt
// carries @pic.png). The fake server checks every SigV4 signature with pig's signer, so a run only
// succeeds when pig signs exactly as the AWS SDK does. Saved per run: Pi's session file and every
// request (method, path, headers with credential values replaced by a marker, body).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Script } from "../../../test/helpers/fake-llm/server.ts";
import { ensurePi } from "../../bench/pi-install.ts";
import { maskOsRelease, runPi } from "./pi-run.ts";

const REPO = resolve(import.meta.dir, "..", "..", "..");
const OUT = join(REPO, "test", "fixtures", "pi-0.87.1-wire", "bedrock-converse-stream");
export const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
export const REGION = "eu-west-1";
/** AWS's documented example credentials (not a secret); the token is made up. */
export const CREDENTIALS = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "FAKE-SESSION-TOKEN-0001",
};
const MARKER = "<credential>";
/** A 1×1 PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const RUNS: { name: string; script: Script; args: string[] }[] = [
  {
    name: "tool",
    script: [
      { thinking: "The user wants the notes. I should read notes.txt.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { thinking: "The file says the launch is on Tuesday.", text: "The notes say: launch on Tuesday." },
    ],
    args: ["What do my notes say? Read notes.txt."],
  },
  {
    name: "image",
    script: [{ thinking: "A single pixel image.", text: "It is a tiny one-pixel image." }],
    args: ["@pic.png", "What is in this picture?"],
  },
];

/**
 * Credential values become the marker; of the Authorization header only the key id and the
 * signature are replaced, so the credential scope (date, region, service) and the signed header
 * names stay for comparison.
 */
function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === "x-amz-security-token") out[name] = MARKER;
    else if (name === "authorization") {
      out[name] = value.replace(/Credential=[^/]+\//, `Credential=${MARKER}/`).replace(/Signature=[0-9a-f]+/, `Signature=${MARKER}`);
    } else out[name] = name.endsWith("user-agent") ? maskOsRelease(value) : value;
  }
  return out;
}

async function record(): Promise<void> {
  const pi = ensurePi("0.87.1");
  mkdirSync(OUT, { recursive: true });
  for (const run of RUNS) {
    await runPi(
      pi,
      {
        tempPrefix: "pig-wire-bedrock-",
        files: { "notes.txt": "launch on Tuesday\n", "pic.png": Buffer.from(PIXEL, "base64") },
        llm: { script: run.script, bedrockAuth: { credentials: CREDENTIALS } },
        modelsJson: (url) => ({ providers: { "amazon-bedrock": { baseUrl: url } } }),
        args: ["-p", "--provider", "amazon-bedrock", "--model", MODEL, "--thinking", "high", ...run.args],
        env: () => ({
          AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
          AWS_SESSION_TOKEN: CREDENTIALS.sessionToken,
          AWS_REGION: REGION,
          // The AWS SDK speaks HTTP/2 to Bedrock by default; the fake server speaks HTTP/1.1.
          AWS_BEDROCK_FORCE_HTTP1: "1",
        }),
      },
      ({ requests, sessionFile, stdout }) => {
        console.log(`${run.name}: ${stdout.trim()}`);
        // Bodies stay as sent: their length and hash are what the SDK signed.
        const lines = requests.map((r) => JSON.stringify({ seq: r.seq, method: r.method, path: r.path, headers: redact(r.headers), body: r.body }));
        writeFileSync(join(OUT, `${run.name}.requests.jsonl`), `${lines.join("\n")}\n`);
        writeFileSync(join(OUT, `${run.name}.jsonl`), readFileSync(sessionFile));
        writeFileSync(join(OUT, `${run.name}.script.json`), `${JSON.stringify(run.script, null, 2)}\n`);
      },
    );
  }
}

if (import.meta.main) await record();
