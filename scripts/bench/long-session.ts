// A long session in print mode: one `-p` run whose model makes 1,000 sequential tool calls (`read`
// of generated source files of 1–6 KB, `bash` printing a few hundred bytes), then a final text,
// for pig and every measured Pi release in the same rounds, against the fake LLM server in this
// process. Per turn k, median over the turns k−10 … k+10:
//   - the agent's CPU time: what its process (every thread, from /proc/PID/task/*/schedstat) spent
//     between the arrival of request k and of request k+1 (the tool's shell is a child, not counted);
//   - the wall time of the same interval, minus the tool's own time (the same read or shell
//     command timed from this process). It includes the server reading and parsing request k in
//     this process while the agent sends it, shown on its own row;
//   - the bytes of request k+1, the floor of what has to be sent, and the CPU time a Bun process
//     doing nothing else spends to POST that many bytes; from it, the lowest turn 1,000 ÷ turn 10
//     pig could reach (its turn 10 plus only what the larger request costs more to send), and
//     pig's ratio with that cost taken out.
// The model's context window is large enough that no side compacts: the last request must carry
// all 1,000 tool results.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type RecordedRequest, type Script, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { Rng } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { agentSides, type AgentSide } from "./fake-agent.ts";
import { ensurePis, type PiRelease } from "./pi-install.ts";
import { cleanup, interleave, median, requirePig } from "./measure.ts";
import { fmtMB, fmtMs, fmtNumber, printReport, type Row } from "./report.ts";

const TURNS = 1_000;
const REPORTED = [10, 100, 1_000] as const;
const WINDOW = 10;
const FILES = 24;
const PROMPT = "work through the files";
// No compaction in any run: 1,000 turns of ~2 KB stay far below this many tokens.
const CONTEXT_WINDOW = 50_000_000;

// A child that POSTs each size 21 times (after 3 unmeasured) to a server in this process that
// reads the body and answers at once; it prints the median CPU time of one POST, in ms, per size.
const POST_CHILD = `
const [url, ...sizes] = process.argv.slice(2);
const out = [];
for (const size of sizes.map(Number)) {
  const body = new Uint8Array(size).fill(0x61);
  const times = [];
  for (let i = 0; i < 24; i++) {
    const before = process.cpuUsage();
    const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
    await response.text();
    const used = process.cpuUsage(before);
    if (i >= 3) times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  out.push(times[times.length >> 1]);
}
console.log(JSON.stringify(out));
`;

const args = commonArgs({ runs: 3, warmup: 0 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-long-"));

/** A TypeScript-looking file of about `bytes` bytes. */
function sourceFile(index: number, bytes: number, next: () => number): string {
  const lines = [`// module ${index}: generated for the long-session benchmark`, `import { helper${index} } from "./helper-${index}.ts";`, ""];
  let size = lines.join("\n").length;
  for (let fn = 0; size < bytes; fn++) {
    const body = [
      `export function step${index}_${fn}(input: readonly number[], limit = ${Math.floor(next() * 1000)}): number {`,
      `  let total = 0;`,
      `  for (const value of input) {`,
      `    if (value > limit) break; // stop at the first value past the limit`,
      `    total += helper${index}(value) * ${(next() * 10).toFixed(3)};`,
      `  }`,
      `  return total;`,
      `}`,
      "",
    ];
    lines.push(...body);
    size += body.join("\n").length + 1;
  }
  return `${lines.join("\n")}\n`;
}

type ToolCall = { name: "read"; arguments: { path: string } } | { name: "bash"; arguments: { command: string } };

/** The 1,000 tool calls: three reads to one shell command, files and sizes varied deterministically. */
function toolCalls(next: () => number): ToolCall[] {
  return Array.from({ length: TURNS }, (_, i): ToolCall => {
    const file = `src/file-${String(Math.floor(next() * FILES)).padStart(2, "0")}.ts`;
    if (i % 4 !== 3) return { name: "read", arguments: { path: file } };
    return { name: "bash", arguments: { command: `head -c ${200 + Math.floor(next() * 400)} ${file}; echo; wc -l ${file}` } };
  });
}

/**
 * CPU time of a process so far, in ms: every thread summed, and its main thread's alone (the
 * task whose id is the pid: where the JavaScript runs, for pig and for Node alike). The first
 * field of schedstat is ns on a CPU.
 */
function processCpuMs(pid: number): { total: number; main: number } {
  let ns = 0;
  let mainNs = Number.NaN;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const taskNs = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
        ns += taskNs;
        if (task === String(pid)) mainNs = taskNs;
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
  } catch {
    return { total: Number.NaN, main: Number.NaN };
  }
  return { total: ns / 1e6, main: mainNs / 1e6 };
}

interface LongSample {
  /** Per turn k (index k−1): the agent process's CPU time from request k to request k+1, in ms. */
  cpu: number[];
  /** The same, of its main thread alone. */
  mainCpu: number[];
  /** Per turn k (index k−1): request k → request k+1 arrived, tool's own time removed, in ms. */
  gaps: number[];
  /** Per turn k (index k−1): the server reading and parsing request k, in ms. */
  serverMs: number[];
  /** Bytes of request k (index k−1), from its content-length. */
  bytes: number[];
  wallMs: number;
}

// Arrival of each request's headers, and the moment the server starts answering it (after
// reading and parsing the body, which grows with the context: that is the server's work).
let arrivals: number[] = [];
let answered: number[] = [];
let cpuAt: { total: number; main: number }[] = [];
let agentPid = 0;
let sizes: number[] = [];
let last: RecordedRequest | undefined;
const llm: FakeLlm = await startFakeLlm({
  onArrival: (request) => {
    arrivals.push(performance.now());
    cpuAt.push(processCpuMs(agentPid));
    sizes.push(Number(request.headers.get("content-length") ?? Number.NaN));
  },
  onRequest: (record) => {
    answered.push(performance.now());
    last = record;
    // 1,001 parsed bodies of up to a few MB each would fill this process.
    llm.requests.length = 0;
  },
});

try {
  // The benchmarks' seeded generator, so every run asks for the same tools.
  const rng = new Rng(33);
  const next = () => rng.next();
  const cwd = join(work, "cwd");
  mkdirSync(join(cwd, "src"), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(cwd, "src", `file-${String(i).padStart(2, "0")}.ts`), sourceFile(i, 1024 + Math.floor(next() * 5 * 1024), next));
  }
  const calls = toolCalls(next);
  const script: Script = { responses: [...calls.map((call) => ({ toolCalls: [call] })), { text: "done" }] };

  const sides = agentSides(pig, pis, { work, cwd, baseUrl: `${llm.url}/v1`, prompt: PROMPT, contextWindow: CONTEXT_WINDOW });
  const keys = [...sides.keys()];

  // The tool's own time of each turn: the same read, or the same shell command, from this process.
  const toolMs = await toolTimes(calls, cwd);

  const samples = await interleave(`${TURNS}-turn session`, keys, args.runs, args.warmup, async (key) => {
    const side = sides.get(key)!;
    llm.setScript(script);
    arrivals = [];
    answered = [];
    cpuAt = [];
    sizes = [];
    last = undefined;
    Bun.gc(true);
    const start = performance.now();
    const proc = Bun.spawn([...side.cmd], { ...side.opts, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    agentPid = proc.pid;
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    const wallMs = performance.now() - start;
    if (code !== 0) throw new Error(`${side.line} exited ${code}:\n${err.slice(-2000)}`);
    checkRun(side, toolMs.length);
    rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
    const gaps = arrivals.slice(0, TURNS).map((at, i) => (arrivals[i + 1] ?? Number.NaN) - at - (toolMs[i] ?? 0));
    const serverMs = arrivals.slice(0, TURNS).map((at, i) => (answered[i] ?? Number.NaN) - at);
    const cpu = cpuAt.slice(0, TURNS).map((at, i) => (cpuAt[i + 1]?.total ?? Number.NaN) - at.total);
    const mainCpu = cpuAt.slice(0, TURNS).map((at, i) => (cpuAt[i + 1]?.main ?? Number.NaN) - at.main);
    return { cpu, mainCpu, gaps, serverMs, bytes: sizes, wallMs } satisfies LongSample;
  });

  // ------------------------------------------------------------------------------------------
  /** Turn k's cost: the median of every run's turns k−WINDOW … k+WINDOW (within 1 … TURNS). */
  const around = (runs: readonly LongSample[], k: number, pick: (s: LongSample) => number[]): number => {
    const from = Math.max(1, k - WINDOW);
    const to = Math.min(TURNS, k + WINDOW);
    return median(runs.flatMap((s) => pick(s).slice(from - 1, to)));
  };
  const turnCpu = (runs: readonly LongSample[], k: number): number => around(runs, k, (s) => s.cpu);
  const per = (pick: (runs: readonly LongSample[]) => number) => ({
    pig: samples.has("pig") ? pick(samples.get("pig")!) : undefined,
    pi: Object.fromEntries(pis.map((p) => [p.release, pick(samples.get(p.release)!)])) as Partial<Record<PiRelease, number>>,
  });
  const rows: Row[] = [];
  for (const k of REPORTED) {
    rows.push({ metric: `turn ${k.toLocaleString("en")}: the agent's CPU time (request ${k} → request ${k + 1})`, ...per((r) => turnCpu(r, k)), format: fmtMs, ratio: "speed" });
  }
  rows.push({
    metric: `turn ${TURNS.toLocaleString("en")} ÷ turn ${REPORTED[0]}, CPU time`,
    ...per((r) => turnCpu(r, TURNS) / turnCpu(r, REPORTED[0])),
    format: fmtNumber(2),
    ratio: "none",
    target: { kind: "absolute", max: 1.5, text: "≤ 1.5" },
  });
  for (const k of REPORTED) {
    rows.push({ metric: `turn ${k.toLocaleString("en")}: of which on the main thread (CPU time)`, ...per((r) => around(r, k, (s) => s.mainCpu)), format: fmtMs, ratio: "none" });
  }
  for (const k of REPORTED) {
    rows.push({ metric: `turn ${k.toLocaleString("en")}: wall time, the tool's own time removed`, ...per((r) => around(r, k, (s) => s.gaps)), format: fmtMs, ratio: "speed" });
  }
  for (const k of REPORTED) {
    rows.push({ metric: `turn ${k.toLocaleString("en")}: of which the server reads and parses request ${k}`, ...per((r) => around(r, k, (s) => s.serverMs)), format: fmtMs, ratio: "none" });
  }
  for (const k of REPORTED) {
    rows.push({ metric: `request ${k + 1}: bytes sent (the floor)`, ...per((r) => median(r.map((s) => s.bytes[k] ?? Number.NaN))), format: fmtMB, ratio: "none" });
  }
  // The floor in CPU time: a Bun process (pig's runtime) that only POSTs bodies of those sizes.
  const floorSizes = REPORTED.map((k) => median([...samples.values()].flat().map((s) => s.bytes[k] ?? Number.NaN)));
  const floor = await postFloor(floorSizes);
  // Rows of pig alone: no figure of Pi's beside them.
  const dash = Object.fromEntries(pis.map((p) => [p.release, "—"]));
  REPORTED.forEach((k, i) => {
    rows.push({
      metric: `request ${k + 1}'s bytes POSTed by a Bun process that does nothing else: its CPU time (the floor)`,
      pig: floor[i],
      pi: {},
      piNote: dash,
      format: fmtMs,
      ratio: "none",
    });
  });
  // How far the ratio can fall: pig's turn 10, plus only what sending the larger request costs
  // more (the floor's growth); and pig's ratio with that growth taken out (its own work's growth).
  const sendGrowth = (floor[REPORTED.length - 1] ?? Number.NaN) - (floor[0] ?? Number.NaN);
  const pigTurn = (k: number): number => (samples.has("pig") ? turnCpu(samples.get("pig")!, k) : Number.NaN);
  rows.push({
    metric: `turn ${TURNS.toLocaleString("en")} ÷ turn ${REPORTED[0]} at the floor: (pig's turn ${REPORTED[0]} + the floor's growth from request ${REPORTED[0] + 1} to ${TURNS + 1}) ÷ pig's turn ${REPORTED[0]}`,
    pig: (pigTurn(REPORTED[0]) + sendGrowth) / pigTurn(REPORTED[0]),
    pi: {},
    piNote: dash,
    format: fmtNumber(2),
    ratio: "none",
  });
  rows.push({
    metric: `turn ${TURNS.toLocaleString("en")} ÷ turn ${REPORTED[0]} with the floor's growth taken out: (pig's turn ${TURNS.toLocaleString("en")} − that growth) ÷ pig's turn ${REPORTED[0]}`,
    pig: (pigTurn(TURNS) - sendGrowth) / pigTurn(REPORTED[0]),
    pi: {},
    piNote: dash,
    format: fmtNumber(2),
    ratio: "none",
  });
  rows.push({ metric: `the whole run (${TURNS + 1} requests): wall time (median)`, ...per((r) => median(r.map((s) => s.wallMs))), format: fmtMs, ratio: "speed" });
  const reads = calls.filter((c) => c.name === "read").length;
  printReport(
    {
      title: `long-session: ${TURNS} tool turns in one -p run, fake LLM in-process, median of ${args.runs} runs × ${2 * WINDOW + 1} turns around each k`,
      releases: pis,
      rows,
      commands: {
        pig: sides.get("pig")?.line ?? "(not run: --pi-only)",
        pi: Object.fromEntries(pis.map((p) => [p.release, sides.get(p.release)!.line])),
      },
      notes: [
        `fake LLM: ${llm.url}/v1 (openai-completions), in this process; ${reads} \`read\` calls of ${FILES} generated files (1–6 KB) and ${TURNS - reads} \`bash\` calls (\`head -c 200…600 FILE; echo; wc -l FILE\`), then a final text`,
        `models.json gives the model a ${CONTEXT_WINDOW.toLocaleString("en")}-token window: no side compacts (checked: the last request carries all ${TURNS} tool results)`,
        `the floor: \`${process.execPath}\` (Bun ${Bun.version}, pig's runtime) POSTs a body of each size with fetch to a server in this process that reads it and answers at once, median CPU time (user + system, process.cpuUsage) of 21 POSTs after 3`,
        `the agent's CPU time is that of its process (all threads, /proc/PID/task/*/schedstat) between the arrivals of request k and k+1; a \`bash\` call's shell is a child and is not counted. The main thread's share is the task whose id is the pid (where the JavaScript runs); the rest is the runtime's other threads (the collector's helpers, the HTTP client, the allocator, the JIT)`,
        `a turn's wall time runs from the headers of request k to those of request k+1; the tool's own time (the same file read, or the same command run by \`bash -c\` from this process, median of 3) is subtracted, median ${median(toolMs).toFixed(2)} ms. The server's reading and parsing of request k, in this process while the agent sends it, is inside that time for every side`,
      ],
    },
    args.check,
  );
} finally {
  await llm.close();
  cleanup(work, args.keep);
}

/** The CPU time a Bun process spends to POST a body of each size and read the answer: what sending costs at the least. */
async function postFloor(sizes: readonly number[]): Promise<number[]> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (request) => new Response(`${(await request.arrayBuffer()).byteLength}`) });
  try {
    const child = join(work, "post-floor.mjs");
    writeFileSync(child, POST_CHILD);
    const proc = Bun.spawn([process.execPath, child, `http://127.0.0.1:${server.port}/`, ...sizes.map(String)], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`the POST floor child failed (exit ${code}): ${err.slice(-1000)}`);
    return JSON.parse(out) as number[];
  } finally {
    await server.stop(true);
  }
}

/** The run sent every request, and the last carries every tool result, none an error. */
function checkRun(side: AgentSide, toolCallsMade: number): void {
  if (arrivals.length !== TURNS + 1 || answered.length !== TURNS + 1) {
    throw new Error(`${side.line}: expected ${TURNS + 1} model requests, the server got ${arrivals.length}`);
  }
  const body = last?.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const results = (body?.messages ?? []).filter((m) => m.role === "tool");
  const bad = results.filter((m) => /error|not found|denied|ENOENT/i.test(typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  if (results.length !== toolCallsMade || bad.length > 0) {
    throw new Error(`${side.line}: last request carries ${results.length} tool results (want ${toolCallsMade}), ${bad.length} look like errors: ${JSON.stringify(bad[0]?.content).slice(0, 300)}`);
  }
}

/** Each call's own time, measured here: a file read, or the shell command run by `bash -c`. */
async function toolTimes(calls: readonly ToolCall[], cwd: string): Promise<number[]> {
  const cache = new Map<string, number>();
  const out: number[] = [];
  for (const call of calls) {
    const key = call.name === "read" ? `read ${call.arguments.path}` : call.arguments.command;
    let ms = cache.get(key);
    if (ms === undefined) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        if (call.name === "read") readFileSync(join(cwd, call.arguments.path), "utf8");
        else {
          const proc = Bun.spawn(["/bin/bash", "-c", call.arguments.command], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
          await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
        }
        times.push(performance.now() - start);
      }
      ms = median(times);
      cache.set(key, ms);
    }
    out.push(ms);
  }
  return out;
}
