/**
 * Records what Pi 0.87.1 sends to the ChatGPT Codex endpoint (`openai-codex-responses`) for a
 * scripted conversation, into test/fixtures/pi-0.87.1-wire/openai-codex-responses/ (see the
 * README there). Pi runs `-p` offline against the fake LLM server: its built-in `openai-codex`
 * provider is pointed at the server by a models.json `baseUrl`, and its auth.json holds an OAuth
 * login with an unsigned test JWT that does not expire.
 *
 *   node_modules/.bin/bun scripts/compat/wire/openai-codex-responses.ts [run names…]
 *
 * With names (tool, image, tool-image), only those runs are recorded again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { release, tmpdir } from "node:os";
import { join } from "node:path";
import { ensurePi } from "../../bench/pi-install.ts";
import { fakeCodexAuthJson } from "../../../test/helpers/fake-jwt.ts";
import { startFakeLlm, type RecordedRequest, type Script } from "../../../test/helpers/fake-llm/server.ts";

const OUT = join(import.meta.dir, "..", "..", "..", "test", "fixtures", "pi-0.87.1-wire", "openai-codex-responses");
const NEUTRAL_ROOT = "/home/dev/wire";
const MODEL = "gpt-5.5";
const THINKING = "high";
// A 4×4 red PNG.
const PIC = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==", "base64");

interface Run {
  name: string;
  args: string[];
  script: Script;
}

const RUNS: Run[] = [
  {
    name: "tool",
    args: ["Read notes.txt and tell me what it says."],
    script: [
      { thinking: "The user wants the file read. I will call the read tool.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { thinking: "The file holds one line of greeting.", text: "notes.txt says: hello from the notes file." },
    ],
  },
  {
    name: "image",
    args: ["@pic.png", "What colour is this picture?"],
    script: [{ thinking: "Every pixel is red.", text: "The picture is red." }],
  },
  {
    name: "tool-image",
    args: ["Read pic.png and tell me what it shows."],
    script: [
      { thinking: "I will look at the picture.", toolCalls: [{ name: "read", arguments: { path: "pic.png" } }] },
      { text: "It shows a red square." },
    ],
  },
];

/** A recorded request as the fixture keeps it: the credential replaced, the machine's OS release hidden. */
function fixtureRequest(request: RecordedRequest): object {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === "authorization") headers[name] = "Bearer [credential]";
    else if (name === "user-agent") headers[name] = value.replace(release(), "<os-release>");
    else headers[name] = value;
  }
  return { seq: request.seq, method: request.method, path: request.path, headers, body: request.body, served: request.served };
}

function findSession(dir: string): string {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".jsonl")) found.push(path);
    }
  };
  walk(dir);
  if (found.length !== 1) throw new Error(`expected one session file under ${dir}, found ${found.length}`);
  return found[0]!;
}

async function record(run: Run): Promise<void> {
  const pi = ensurePi("0.87.1");
  const root = mkdtempSync(join(tmpdir(), "pig-wire-codex-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "work");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  writeFileSync(join(cwd, "notes.txt"), "hello from the notes file\n");
  writeFileSync(join(cwd, "pic.png"), PIC);
  const llm = await startFakeLlm({ script: run.script });
  try {
    const models = { providers: { "openai-codex": { baseUrl: `${llm.url}/backend-api` } } };
    writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify(fakeCodexAuthJson(), null, 2));
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, enableInstallTelemetry: false }, null, 2));
    const env = {
      PATH: `${pi.nodeBinDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: agentDir,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
    };
    const argv = [...pi.cmd, "--provider", "openai-codex", "--model", MODEL, "--thinking", THINKING, "-p", ...run.args];
    const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`Pi exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    console.log(`${run.name}: Pi answered ${JSON.stringify(stdout.trim())} in ${llm.requests.length} request(s)`);
    const neutral = (text: string) => text.split(root).join(NEUTRAL_ROOT);
    const requests = llm.requests.map((request) => JSON.stringify(fixtureRequest(request))).join("\n");
    writeFileSync(join(OUT, `${run.name}.requests.jsonl`), `${neutral(requests)}\n`);
    writeFileSync(join(OUT, `${run.name}.session.jsonl`), neutral(readFileSync(findSession(join(agentDir, "sessions")), "utf8")));
  } finally {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}

mkdirSync(OUT, { recursive: true });
const only = process.argv.slice(2);
for (const run of RUNS) if (only.length === 0 || only.includes(run.name)) await record(run);
