// Two or more pig binaries on `pig -p hello` against the fake LLM server, in interleaved rounds
// (each round runs every binary once, in a rotating order), so all of them see the same machine
// load. Used by pig-versions.ts (any binaries) and guard.ts (an older commit against this build).
// With `toolTurns`, the model first asks for that many `bash true` calls, one a turn, so the
// gaps between a run's requests show what a tool turn costs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Script, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { dropPageCache, interleave, median, pigEnv } from "./measure.ts";
import { shellLine } from "./report.ts";

/** One `-p hello` run: wall time, spawn → first model request, CPU (user + sys) and peak RSS. */
export interface PigRunSample {
  wallMs: number;
  firstRequestMs: number;
  cpuMs: number;
  rssMb: number;
  /** With `toolTurns`: the median gap between two of the run's requests (one `bash true` turn). */
  turnGapMs?: number;
}

export interface PigRace {
  /** Samples per binary, in the order given. */
  samples: PigRunSample[][];
  /** The command line each binary was timed with (its agent dir set in the environment). */
  commands: string[];
}

const GNU_TIME = "/usr/bin/time";

/**
 * Every run is under GNU time, for peak RSS (`%M`): time's own exec (~1 ms) is in every wall
 * figure alike. CPU comes from the rusage of the waited-for process (microseconds; GNU time
 * prints 10 ms ticks), which counts pig and time's own ~0.5 ms. Each binary's page cache is
 * dropped first (measure.ts `dropPageCache`), so a fresh build does not peak higher for it. Each
 * run must ask the model once and print its answer.
 */
export async function racePig(binaries: readonly string[], args: readonly string[], runs: number, warmup: number, toolTurns = 0): Promise<PigRace> {
  if (!existsSync(GNU_TIME)) throw new Error(`needs GNU time at ${GNU_TIME} (apt-get install time)`);
  dropPageCache(binaries);
  const work = mkdtempSync(join(tmpdir(), "pig-bench-race-"));
  let arrivals: number[] = [];
  const loop: Script | undefined = toolTurns > 0 ? { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }], repeat: toolTurns }, { text: "ok" }] } : undefined;
  const llm = await startFakeLlm({ ...(loop ? { script: loop } : { mode: "text" as const }), onRequest: () => void arrivals.push(performance.now()) });
  try {
    const cwd = join(work, "cwd");
    mkdirSync(cwd);
    const sides = binaries.map((bin, i) => {
      const agentDir = join(work, `agent-${i}`);
      writeFakeAgentDir(agentDir, `${llm.url}/v1`);
      return { bin, agentDir, timeFile: join(work, `time-${i}.txt`) };
    });
    const keys = sides.map((_, i) => String(i));
    const what = loop ? `${toolTurns} bash turns` : "-p hello";
    const byKey = await interleave(`${what}, ${binaries.length} binaries`, keys, runs, warmup, async (key) => {
      const side = sides[Number(key)]!;
      const cmd = [side.bin, ...args];
      arrivals = [];
      if (loop) llm.setScript(loop);
      const start = performance.now();
      const proc = Bun.spawn([GNU_TIME, "-f", "%M", "-o", side.timeFile, ...cmd], { env: pigEnv(side.agentDir), cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      const wallMs = performance.now() - start;
      if (code !== 0 || stdout.trim() !== "ok" || arrivals.length !== toolTurns + 1) {
        throw new Error(`${shellLine(cmd)}: exit ${code}, ${arrivals.length} model requests, stdout ${JSON.stringify(stdout)}\n${stderr.slice(-2000)}`);
      }
      const rssKb = Number(readFileSync(side.timeFile, "utf8").trim().split("\n").at(-1));
      const cpuMs = Number(proc.resourceUsage()?.cpuTime.total ?? Number.NaN) / 1000;
      rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
      const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
      return { wallMs, firstRequestMs: arrivals[0]! - start, cpuMs, rssMb: rssKb / 1024, ...(gaps.length > 0 ? { turnGapMs: median(gaps) } : {}) };
    });
    return {
      samples: keys.map((k) => byKey.get(k)!),
      commands: sides.map((s) => `PIG_CODING_AGENT_DIR=${s.agentDir} ${shellLine([s.bin, ...args])}`),
    };
  } finally {
    await llm.close();
    rmSync(work, { recursive: true, force: true });
  }
}

export const RACE_METRICS: readonly { label: string; pick: (s: PigRunSample) => number; unit: string }[] = [
  { label: "wall time", pick: (s) => s.wallMs, unit: "ms" },
  { label: "spawn → first request", pick: (s) => s.firstRequestMs, unit: "ms" },
  { label: "CPU (user + sys)", pick: (s) => s.cpuMs, unit: "ms" },
  { label: "peak RSS", pick: (s) => s.rssMb, unit: "MB" },
];

/** The median of one metric over a binary's samples. */
export function medianOf(samples: readonly PigRunSample[], pick: (s: PigRunSample) => number): number {
  return median(samples.map(pick));
}
