// The agent loop in print mode, against a fake LLM server started in this process (instant
// answers), for pig and every measured Pi release in the same rounds:
//   1. `pig -p hello` vs `pi -p hello`: wall time, and spawn → first model request (1 turn);
//   2. peak RSS of that one-turn run (separate runs under GNU time, so its exec does not count
//      toward the times above);
//   3. a 50-turn tool loop (50 sequential `bash true` calls, then a final text) vs the 1-turn
//      run: per-turn time = (t50 − t1) / 50 with t = wall time minus the run's own spawn → first
//      request, so start-up noise does not swamp the turns; and per-turn overhead = that minus
//      the tool's own process time, `/bin/bash -c true` spawned and waited for from this
//      process, measured in the same rounds;
//   and, for information, the peak RSS of the loop, and the same loop with `read` instead of
//   `bash` (no process spawn per turn);
//   4. the floor (agent-floor.ts): the least agent, built with pig's flags, run in the same rounds
//      as a third contender, so each of pig's figures stands beside what the runtime, the round
//      trips and the tools cost on the same moment of the machine.
// Every agent gets the same isolated agent dir contents (one provider `fake`, openai-completions).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type RecordedRequest, type Script, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { commonArgs } from "./options.ts";
import { agentSides, type AgentSide } from "./fake-agent.ts";
import { buildAgentFloor } from "./agent-floor.ts";
import { ensurePis, type PiRelease } from "./pi-install.ts";
import { cleanup, type Contender, dropPageCache, interleave, maxRss, median, medianMs, requirePig, runOnce, type RunSample } from "./measure.ts";
import { fmtMB, fmtMs, printReport, shellLine, type Row, type Target } from "./report.ts";

const TOOL_TURNS = 50;
const PROMPT = "hello";
const ONE_TURN: Script = { responses: [{ text: "ok" }] };
const TOOL_LOOP: Script = { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }], repeat: TOOL_TURNS }, { text: "done" }] };
// The same loop with `read` of a 3-byte file: no process spawn per turn, so it shows each agent's own
// per-turn cost (request building, streaming, session writes) without the shell start-up.
const READ_FILE = "small.txt";
const READ_LOOP: Script = { responses: [{ toolCalls: [{ name: "read", arguments: { path: READ_FILE } }], repeat: TOOL_TURNS }, { text: "done" }] };
// The tool's own process: what every bash turn pays on either side, whoever spawns it.
const TOOL_PROCESS = ["/bin/bash", "-c", "true"];
const TOOL_PROCESS_PER_ROUND = 10;

const args = commonArgs({ runs: 7, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-agent-"));

// The server runs in this process, so a request is timestamped on the same clock as the spawn.
let arrivals: number[] = [];
const llm: FakeLlm = await startFakeLlm({
  script: ONE_TURN,
  onRequest: () => {
    arrivals.push(performance.now());
  },
});

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

  type Key = Contender | "floor";
  const sides: Map<Key, AgentSide> = agentSides(pig, pis, { work, cwd, baseUrl: `${llm.url}/v1`, prompt: PROMPT });
  const floor = pig === undefined ? undefined : buildAgentFloor(work);
  // The floor sends the body of pig's own first request (written by the check below).
  const floorBody = join(work, "floor-body.json");
  if (floor !== undefined) {
    const cmd = [floor, `${llm.url}/v1/chat/completions`, floorBody];
    // The environment pig and the tool's own process get, so its shells start as theirs do.
    sides.set("floor", { cmd, opts: { env: { ...process.env }, cwd }, agentDir: join(work, "floor-writes-no-sessions"), line: shellLine(cmd) });
  }
  const keys = [...sides.keys()];

  // Untimed check that everyone really talks to the server and prints its answer. Asynchronous
  // spawn only: the server runs on this process's event loop, so spawnSync would deadlock.
  for (const [key, side] of sides) {
    llm.setScript(ONE_TURN);
    const proc = Bun.spawn([...side.cmd], { ...side.opts, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 || out.trim() !== "ok") {
      throw new Error(`${side.line} printed ${JSON.stringify(out.trim())} (exit ${code}):\n${err.slice(-2000)}`);
    }
    if (key === "pig") writeFileSync(floorBody, JSON.stringify(llm.requests.at(-1)?.body));
  }
  for (let i = 0; i < 3; i++) await runOnce(TOOL_PROCESS, { cwd });
  // Every executable as read back from disk (see dropPageCache); the warm-up runs read it in again.
  const executables = [...(pig === undefined ? [] : [pig]), ...(floor === undefined ? [] : [floor]), ...new Set(pis.map((p) => p.node))];
  dropPageCache(executables);

  const run = (script: Script, expectRequests: number, rss: boolean) => (key: Key) => runAgent(sides.get(key)!, script, expectRequests, rss);
  const oneTurn = await interleave("1 turn", keys, args.runs, args.warmup, run(ONE_TURN, 1, false));
  const oneTurnRss = await interleave("1 turn, peak RSS", keys, args.runs, args.warmup, run(ONE_TURN, 1, true));
  // The tool's own process time is measured in the loop's rounds, as one more contender.
  const toolProcess: number[] = [];
  const loopKeys: (Key | "tool")[] = [...keys, "tool"];
  const loopRuns = await interleave(`${TOOL_TURNS}-turn bash loop`, loopKeys, args.runs, args.warmup, async (key) => {
    if (key !== "tool") return runAgent(sides.get(key)!, TOOL_LOOP, TOOL_TURNS + 1, true);
    for (let i = 0; i < TOOL_PROCESS_PER_ROUND; i++) toolProcess.push((await runOnce(TOOL_PROCESS, { cwd })).ms);
    return undefined;
  });
  const readLoop = await interleave(`${TOOL_TURNS}-turn read loop`, keys, args.runs, args.warmup, run(READ_LOOP, TOOL_TURNS + 1, false));
  const toolMs = median(toolProcess);

  // ------------------------------------------------------------------------------------------
  const afterFirst = (xs: readonly AgentSample[]) => median(xs.map((x) => x.ms - x.firstRequestMs));
  const stat = (key: Key) => {
    const one = oneTurn.get(key)!;
    const loop = loopRuns.get(key)! as AgentSample[];
    const reads = readLoop.get(key)!;
    // Wall time after the first request: the same as wall time minus start-up, per run. Pi's
    // start-up alone varies by ±0.5 s on a loaded machine, which swamps 50 turns when two medians
    // of whole runs are subtracted; subtracting per run first leaves only the turns' own noise.
    const perTurn = (afterFirst(loop) - afterFirst(one)) / TOOL_TURNS;
    return {
      first: median(one.map((s) => s.firstRequestMs)),
      t1: medianMs(one),
      rss1: maxRss(oneTurnRss.get(key)!),
      t50: medianMs(loop),
      perTurn,
      overhead: perTurn - toolMs,
      gap: median(loop.flatMap(requestGaps)),
      rss50: maxRss(loop),
      perTurnRead: (afterFirst(reads) - afterFirst(one)) / TOOL_TURNS,
      gapRead: median(reads.flatMap(requestGaps)),
    };
  };
  const stats = new Map(keys.map((k) => [k, stat(k)]));
  type Stat = ReturnType<typeof stat>;
  const row = (metric: string, pick: (s: Stat) => number, format: (v: number) => string, ratio: Row["ratio"], target?: Target): Row => ({
    metric,
    pig: stats.has("pig") ? pick(stats.get("pig")!) : undefined,
    pi: Object.fromEntries(pis.map((p) => [p.release, pick(stats.get(p.release)!)])) as Partial<Record<PiRelease, number>>,
    format,
    ratio,
    ...(target ? { target } : {}),
  });
  // The floor's figures, beside pig's: the same metric, for the least agent on the same moment.
  const floorRow = (metric: string, pick: (s: Stat) => number, format: (v: number) => string): Row => ({
    metric: `floor: ${metric}`,
    pig: stats.has("floor") ? pick(stats.get("floor")!) : undefined,
    pi: {},
    piNote: Object.fromEntries(pis.map((p) => [p.release, "—"])),
    format,
    ratio: "none",
  });
  const toolRow: Row = {
    metric: "the tool's own process: `/bin/bash -c true` spawned and waited for",
    pig: toolMs,
    pi: {},
    piNote: Object.fromEntries(pis.map((p) => [p.release, "(the same)"])),
    format: fmtMs,
    ratio: "none",
  };
  printReport(
    {
      title: `agent (print mode): fake LLM in-process, median of ${args.runs} rounds after ${args.warmup} warm-up`,
      releases: pis,
      rows: [
        row("`-p hello`, 1 turn: wall time", (s) => s.t1, fmtMs, "speed", { kind: "speed", factor: 20, word: "faster" }),
        row("`-p hello`, 1 turn: spawn → first request", (s) => s.first, fmtMs, "speed", { kind: "speed", factor: 20, word: "faster" }),
        row("`-p hello`, 1 turn: peak RSS (max)", (s) => s.rss1, fmtMB, "share", { kind: "share", max: 1 / 3, text: "≤ ⅓ (0.33)" }),
        row(`${TOOL_TURNS} × bash true + final text (${TOOL_TURNS + 1} requests): wall time`, (s) => s.t50, fmtMs, "speed"),
        row("bash loop: per turn, start-up removed", (s) => s.perTurn, fmtMs, "speed"),
        toolRow,
        row("bash loop: per-turn overhead above the tool's own process", (s) => s.overhead, fmtMs, "speed", { kind: "speed", factor: 5, word: "lower" }),
        row("bash loop: request → request gap", (s) => s.gap, fmtMs, "speed"),
        row("bash loop: peak RSS (max)", (s) => s.rss50, fmtMB, "share"),
        row(`${TOOL_TURNS} × read of a 3-byte file: per turn, start-up removed`, (s) => s.perTurnRead, fmtMs, "speed"),
        row("read loop: request → request gap", (s) => s.gapRead, fmtMs, "speed"),
        floorRow("`-p hello`, 1 turn: wall time", (s) => s.t1, fmtMs),
        floorRow("`-p hello`, 1 turn: spawn → first request", (s) => s.first, fmtMs),
        floorRow("`-p hello`, 1 turn: peak RSS (max)", (s) => s.rss1, fmtMB),
        floorRow("bash loop: per-turn overhead above the tool's own process", (s) => s.overhead, fmtMs),
        floorRow("read loop: per turn, start-up removed", (s) => s.perTurnRead, fmtMs),
      ],
      commands: {
        pig: sides.get("pig")?.line ?? "(not run: --pi-only)",
        pi: Object.fromEntries(pis.map((p) => [p.release, sides.get(p.release)!.line])),
      },
      notes: [
        `fake LLM: ${llm.url}/v1 (openai-completions), in this process; ${TOOL_TURNS}-turn script: ${JSON.stringify(TOOL_LOOP)}`,
        `peak RSS is GNU time's %M; the page cache of ${executables.join(", ")} was dropped before the warm-up runs (dd iflag=nocache), so each maps its executable as read back from disk`,
        ...(floor === undefined ? [] : [`floor: scripts/bench/agent-floor.ts's program, compiled with pig's build flags, in the same rounds: ${sides.get("floor")!.line} (the body of pig's first request, from ${floorBody}, sent again each turn with the calls and results added; each tool call run; the final text printed; no session file, settings or checks)`]),
        `the tool's own process time is the median of ${toolProcess.length} spawns of \`${TOOL_PROCESS.join(" ")}\`, ${TOOL_PROCESS_PER_ROUND} in each round of the bash loop`,
      ],
    },
    args.check,
  );
} finally {
  await llm.close();
  cleanup(work, args.keep);
}

async function runAgent(side: AgentSide, script: Script, expectRequests: number, rss: boolean): Promise<AgentSample> {
  llm.setScript(script);
  // The server answers in this process, so its garbage (every request body of earlier runs)
  // is collected now rather than while the next run waits on it.
  llm.requests.splice(0);
  Bun.gc(true);
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
  // Keep the session dir from growing across runs (no side reads it in -p mode, but be safe).
  rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
  return { ...sample, firstRequestMs: first - start, arrivals };
}

/** The last request must carry every tool result, each a successful call (not an error). */
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
