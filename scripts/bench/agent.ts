// The agent loop in print mode, against a fake LLM server started in this process (instant answers):
//   1. `pig -p hello` vs `pi -p hello`: spawn → first model request, and total wall time (1 turn);
//   2. a 50-turn tool loop (50 sequential `bash true` calls, then a final text) vs the 1-turn run:
//      per-turn overhead = (t50 − t1) / 50 (the loop makes 50 more requests), with t = wall time
//      minus the run's own spawn → first request, so start-up noise does not swamp the turns;
//   3. peak RSS of the 50-turn run;
//   4. `--version`, as in startup.ts, so the ratios above can be read against the start-up floor;
//   and, for information, the same loop with `read` instead of `bash` (no process spawn per turn)
//   and the time to spawn `bash -c true`, the floor every bash turn pays on either side.
// Both agents get the same isolated agent dir contents (one provider `fake`, openai-completions).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type RecordedRequest, type Script, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { cleanup, commonArgs, ensurePi, fmtMB, fmtMs, maxRss, median, medianMs, piEnv, pigEnv, printSummary, requirePig, type RunOptions, runOnce, type RunSample, shellLine, timeBoth, type SummaryRow } from "./pi-install.ts";

const TOOL_TURNS = 50;
const PROMPT = "hello";
const ONE_TURN: Script = { responses: [{ text: "ok" }] };
const TOOL_LOOP: Script = { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }], repeat: TOOL_TURNS }, { text: "done" }] };
// The same loop with `read` of a 3-byte file: no process spawn per turn, so it shows the agent's own
// per-turn cost (request building, streaming, session writes) without the shell start-up.
const READ_FILE = "small.txt";
const READ_LOOP: Script = { responses: [{ toolCalls: [{ name: "read", arguments: { path: READ_FILE } }], repeat: TOOL_TURNS }, { text: "done" }] };
const VERSION_RUNS = 10;
const BASH_FLOOR = ["/bin/bash", "-c", "true"];
const FLOOR_RUNS = 30;

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig();
const pi = ensurePi();
const work = mkdtempSync(join(tmpdir(), "pig-bench-agent-"));

// The server runs in this process, so a request is timestamped on the same clock as the spawn.
let arrivals: number[] = [];
const llm: FakeLlm = await startFakeLlm({
  script: ONE_TURN,
  onRequest: () => {
    arrivals.push(performance.now());
  },
});

type Name = "pig" | "pi";
interface AgentSide {
  name: Name;
  cmd: readonly string[];
  opts: RunOptions;
  /** The same command with the env that matters, for the summary. */
  line: string;
}

interface AgentSample extends RunSample {
  /** Spawn → first model request arrives at the fake server. */
  firstRequestMs: number;
  /** performance.now() of each model request's arrival during this run. */
  arrivals: number[];
}

try {
  const cwd = join(work, "cwd");
  mkdirSync(cwd);
  writeFileSync(join(cwd, READ_FILE), "hi\n");
  const agentDirs = { pig: join(work, "agent-pig"), pi: join(work, "agent-pi") };
  for (const dir of Object.values(agentDirs)) writeAgentDir(dir, `${llm.url}/v1`);

  const piExtraEnv = { PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" };
  const pigSide: AgentSide | undefined =
    pig === undefined
      ? undefined
      : {
          name: "pig",
          cmd: [pig, "-p", PROMPT],
          opts: { env: pigEnv(agentDirs.pig), cwd },
          line: shellLine([pig, "-p", PROMPT], { PIG_CODING_AGENT_DIR: agentDirs.pig }),
        };
  const piSide: AgentSide = {
    name: "pi",
    cmd: [pi.bin, "-p", PROMPT],
    opts: { env: { ...piEnv(agentDirs.pi), ...piExtraEnv }, cwd },
    line: shellLine([pi.bin, "-p", PROMPT], { ...piExtraEnv, PI_CODING_AGENT_DIR: agentDirs.pi }),
  };
  const sides = pigSide === undefined ? [piSide] : [pigSide, piSide];

  // Untimed check that both sides really talk to the server and print its answer. Asynchronous
  // spawn only: the server runs on this process's event loop, so spawnSync would deadlock.
  for (const side of sides) {
    llm.setScript(ONE_TURN);
    const proc = Bun.spawn([...side.cmd], { ...side.opts, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 || out.trim() !== "ok") {
      throw new Error(`${side.line} printed ${JSON.stringify(out.trim())} (exit ${code}):\n${err.slice(-2000)}`);
    }
  }

  const oneTurn = await measure("1 turn", sides, ONE_TURN, 1, false);
  const toolLoop = await measure(`${TOOL_TURNS}-turn tool loop`, sides, TOOL_LOOP, TOOL_TURNS + 1, true);
  const readLoop = await measure(`${TOOL_TURNS}-turn read loop`, sides, READ_LOOP, TOOL_TURNS + 1, false);

  // --version: the same measurement as startup.ts (empty agent dir, scratch cwd).
  const versionDir = join(work, "agent-empty");
  process.stderr.write("[bench] --version: ");
  const version = await timeBoth(
    pigSide === undefined ? undefined : { cmd: [pigSide.cmd[0]!, "--version"], opts: { env: pigEnv(versionDir), cwd } },
    { cmd: [pi.bin, "--version"], opts: { env: { ...piEnv(versionDir), ...piExtraEnv }, cwd } },
    VERSION_RUNS,
    2,
  );

  // The floor every tool turn pays on both sides: spawning a shell that does nothing.
  for (let i = 0; i < 3; i++) await runOnce(BASH_FLOOR, { cwd });
  const floorRuns: RunSample[] = [];
  for (let i = 0; i < FLOOR_RUNS; i++) floorRuns.push(await runOnce(BASH_FLOOR, { cwd }));
  const floor = medianMs(floorRuns);

  // ------------------------------------------------------------------------------------------
  const stat = (name: Name) => {
    const one = oneTurn[name];
    const loop = toolLoop[name];
    const reads = readLoop[name];
    if (one === undefined || loop === undefined || reads === undefined) return undefined;
    const t1 = medianMs(one);
    const t50 = medianMs(loop);
    // Wall time after the first request: the same as wall time minus start-up, per run. Pi's
    // start-up alone varies by ±0.5 s on a loaded machine, which swamps 50 turns when two medians
    // of whole runs are subtracted; subtracting per run first leaves only the turns' own noise.
    const afterFirst = (xs: readonly AgentSample[]) => median(xs.map((x) => x.ms - x.firstRequestMs));
    return {
      first: median(one.map((s) => s.firstRequestMs)),
      t1,
      t50,
      perTurnRaw: (t50 - t1) / TOOL_TURNS,
      perTurn: (afterFirst(loop) - afterFirst(one)) / TOOL_TURNS,
      perTurnRead: (afterFirst(reads) - afterFirst(one)) / TOOL_TURNS,
      gapRead: median(reads.flatMap(requestGaps)),
      gap: median(loop.flatMap(requestGaps)),
      rss: maxRss(loop),
    };
  };
  const p = stat("pi")!;
  const g = pig === undefined ? undefined : stat("pig");
  const versionPi = medianMs(version.pi);
  const versionPig = version.pig === undefined ? undefined : medianMs(version.pig);

  const faster = (target: number, pigV: number | undefined, piV: number): Pick<SummaryRow, "pig" | "pi" | "ratio" | "met"> => ({
    pig: pigV === undefined ? "n/a" : fmtMs(pigV),
    pi: fmtMs(piV),
    ratio: pigV === undefined ? "n/a" : `${(piV / pigV).toFixed(1)}× faster`,
    met: pigV === undefined ? undefined : piV / pigV >= target,
  });
  const info = (pigV: number | undefined, piV: number): Pick<SummaryRow, "pig" | "pi" | "ratio" | "met" | "target" | "info"> => ({
    ...faster(0, pigV, piV),
    ratio: pigV === undefined ? "n/a" : `${(piV / pigV).toFixed(1)}×`,
    target: "—",
    info: true,
  });
  printSummary(
    `agent (print mode): fake LLM in-process, median of ${args.runs} runs after ${args.warmup} warm-up`,
    [
      { metric: "spawn → first request (1 turn)", ...faster(20, g?.first, p.first), target: "≥ 20× faster" },
      { metric: "wall time, 1 turn", ...info(g?.t1, p.t1) },
      { metric: `wall time, ${TOOL_TURNS}-turn bash loop`, ...info(g?.t50, p.t50) },
      { metric: `per-turn, (t${TOOL_TURNS}−t1)/${TOOL_TURNS} of whole runs`, ...info(g?.perTurnRaw, p.perTurnRaw) },
      { metric: "per-turn overhead, start-up removed", ...faster(5, g?.perTurn, p.perTurn), ratio: g === undefined ? "n/a" : `${(p.perTurn / g.perTurn).toFixed(1)}× lower`, target: "≥ 5× lower" },
      { metric: "bash loop: request→request gap", ...info(g?.gap, p.gap) },
      { metric: "read loop: per-turn, start-up removed", ...info(g?.perTurnRead, p.perTurnRead) },
      { metric: "read loop: request→request gap", ...info(g?.gapRead, p.gapRead) },
      {
        metric: `peak RSS, ${TOOL_TURNS}-turn bash loop (max)`,
        pig: g === undefined ? "n/a" : fmtMB(g.rss),
        pi: fmtMB(p.rss),
        ratio: g === undefined ? "n/a" : (g.rss / p.rss).toFixed(2),
        target: "≤ 1/3 (0.33)",
        met: g === undefined ? undefined : g.rss * 3 <= p.rss,
      },
      { metric: `--version wall time (median of ${VERSION_RUNS})`, ...faster(40, versionPig, versionPi), target: "≥ 40× faster" },
    ],
    { pig: pigSide?.line ?? "(not run: --pi-only)", pi: piSide.line },
    args.check,
  );
  console.log(`fake LLM: ${llm.url}/v1 (openai-completions), in this process; ${TOOL_TURNS}-turn script: ${JSON.stringify(TOOL_LOOP)}`);
  const minus = (v: number | undefined) => (v === undefined ? "n/a" : fmtMs(v - floor));
  console.log(
    `tool floor: \`${BASH_FLOOR.join(" ")}\` spawned from this process takes ${fmtMs(floor)} (median of ${FLOOR_RUNS}); ` +
      `per-turn overhead above it: pig ${minus(g?.perTurn)}, pi ${minus(p.perTurn)}`,
  );
} finally {
  await llm.close();
  cleanup(work, args.keep);
}

/**
 * Warm-up, then `args.runs` rounds alternating pig and Pi, each with a fresh copy of `script`.
 * Every run must produce exactly `expectRequests` model requests, or the figures compare different work.
 */
async function measure(label: string, sides: readonly AgentSide[], script: Script, expectRequests: number, rss: boolean): Promise<Partial<Record<Name, AgentSample[]>>> {
  const out: Partial<Record<Name, AgentSample[]>> = {};
  for (let i = 0; i < args.warmup; i++) for (const side of sides) await runAgent(side, script, expectRequests, rss);
  process.stderr.write(`[bench] ${label}: measuring `);
  for (let i = 0; i < args.runs; i++) {
    for (const side of sides) (out[side.name] ??= []).push(await runAgent(side, script, expectRequests, rss));
    process.stderr.write(".");
  }
  const fmt = (s: AgentSample[] | undefined) => (s === undefined ? "n/a" : `${fmtMs(medianMs(s))} (first request ${fmtMs(median(s.map((x) => x.firstRequestMs)))})`);
  process.stderr.write(` pig ${fmt(out.pig)}, pi ${fmt(out.pi)}\n`);
  return out;
}

async function runAgent(side: AgentSide, script: Script, expectRequests: number, rss: boolean): Promise<AgentSample> {
  llm.setScript(script);
  const before = llm.requests.length;
  arrivals = [];
  // runOnce spawns right away (its GNU time probe is cached after the first call), so this start
  // is within microseconds of the spawn; its own ms is used for wall time.
  const start = performance.now();
  const sample = await runOnce(side.cmd, { ...side.opts, rss });
  const requests = llm.requests.slice(before);
  const first = arrivals[0];
  if (first === undefined || requests.length !== expectRequests) {
    throw new Error(`${side.line}: expected ${expectRequests} model requests, the server got ${requests.length}`);
  }
  if (expectRequests > 1) checkToolLoop(side, requests, expectRequests - 1);
  // Keep the session dir from growing across runs (neither side reads it in -p mode, but be safe).
  rmSync(join(agentDirOf(side), "sessions"), { recursive: true, force: true });
  return { ...sample, firstRequestMs: first - start, arrivals };
}

function agentDirOf(side: AgentSide): string {
  const env = side.opts.env ?? {};
  return (side.name === "pig" ? env.PIG_CODING_AGENT_DIR : env.PI_CODING_AGENT_DIR) ?? "";
}

/** The last request must carry every tool result, each a successful `bash true` (not an error). */
function checkToolLoop(side: AgentSide, requests: readonly RecordedRequest[], toolCalls: number): void {
  const body = requests.at(-1)?.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const results = (body?.messages ?? []).filter((m) => m.role === "tool");
  const bad = results.filter((m) => /error|not found|denied/i.test(typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  if (results.length !== toolCalls || bad.length > 0) {
    throw new Error(`${side.line}: last request carries ${results.length} tool results (want ${toolCalls}), ${bad.length} look like errors: ${JSON.stringify(bad[0]?.content)}`);
  }
}

/** Milliseconds between consecutive model requests of one run: answer streamed, tool run, next request sent. */
function requestGaps(s: AgentSample): number[] {
  return s.arrivals.slice(1).map((x, i) => x - (s.arrivals[i] ?? x));
}

function writeAgentDir(dir: string, baseUrl: string): void {
  mkdirSync(dir, { recursive: true });
  const model = {
    id: "fake-model",
    name: "fake-model",
    reasoning: false,
    input: ["text"],
    contextWindow: 128000,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  const models = { providers: { fake: { baseUrl, api: "openai-completions", apiKey: "fake-key", models: [model] } } };
  writeFileSync(join(dir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
  const settings = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false };
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
}
