// The interactive mode under a fast stream: the fake LLM streams one long Markdown answer
// (100,000 tokens by default: paragraphs, fenced code in six languages, tables, lists) at 200
// tokens/s into `pig` in a 120×40 tmux pane, after a prompt is typed, and the same into each Pi
// release in its own pane, all at the same time (each with its own server and stream): the
// stream takes 500 s, so sides one after another would take that many times longer. What is
// compared is CPU time, not wall time: utime + stime of the program's process tree (/proc), from
// the request (the first token follows at once) to the moment its last line is on the screen, as
// a share of one core. Peak RSS is the tree's VmHWM then. The scrollback is then checked for
// every section's heading and the last line.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, type PiInstall } from "./pi-install.ts";
import { cleanup, requirePig } from "./measure.ts";
import { fmtMB, printReport, shellLine } from "./report.ts";
import { CHARS_PER_TOKEN, streamAnswer } from "./stream-answer.ts";
import { TmuxPane } from "./tmux-pane.ts";
import { treeUsage } from "./tree-cpu.ts";

const WIDTH = 120;
const HEIGHT = 40;
const PROMPT = "write the long answer";
/** Tokens in one streamed chunk (the chunk is this many × CHARS_PER_TOKEN characters). */
const TOKENS_PER_CHUNK = 4;
const READY_MS = 60_000;

const args = commonArgs({ runs: 1, warmup: 0 }, ["tokens", "rate", "pig-cpu-prof"]);
const own = args.own;
const tokens = Number(own.tokens ?? 100_000);
const rate = Number(own.rate ?? 200);
if (!Number.isInteger(tokens) || tokens < 100) throw new Error(`--tokens must be an integer ≥ 100, got ${own.tokens}`);
if (!(rate > 0)) throw new Error(`--rate must be a positive number of tokens a second, got ${own.rate}`);
/** A directory for a CPU profile of pig's process (Bun's --cpu-prof), written when it exits. */
const pigProfileDir = own["pig-cpu-prof"];

const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-stream-"));
const answer = streamAnswer(tokens);
const chunkIntervalMs = (TOKENS_PER_CHUNK * 1000) / rate;
const streamSeconds = answer.text.length / CHARS_PER_TOKEN / rate;

interface Side {
  label: string;
  cmd: readonly string[];
  env: Record<string, string>;
  /** The program has drawn its prompt and takes input. */
  ready: (screen: string) => boolean;
  llm: FakeLlm;
  pane?: TmuxPane;
  requestAt?: number;
  cpuAtRequest?: number;
  endAt?: number;
  cpuAtEnd?: number;
  hwmBytes?: number;
  sectionsSeen?: number;
}

/** A side's own server: one answer, paced; the request's moment and the tree's CPU time then. */
async function sideServer(side: () => Side): Promise<FakeLlm> {
  return startFakeLlm({
    script: { responses: [{ text: answer.text, chunkSize: TOKENS_PER_CHUNK * CHARS_PER_TOKEN, chunkIntervalMs }] },
    onRequest: () => {
      const s = side();
      if (s.requestAt !== undefined || s.pane === undefined) return;
      s.requestAt = performance.now();
      s.cpuAtRequest = treeUsage(s.pane.pid()).cpuMs;
    },
  });
}

const baseEnv = (home: string): Record<string, string> => ({ HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color", LANG: process.env.LANG ?? "C.UTF-8" });

const sides: Side[] = [];
try {
  const cwd = join(work, "cwd");
  mkdirSync(cwd);
  if (pig !== undefined) {
    const side = { label: "pig" } as Side;
    side.llm = await sideServer(() => side);
    const agentDir = join(work, "agent-pig");
    writeFakeAgentDir(agentDir, `${side.llm.url}/v1`, { contextWindow: 200000, maxTokens: 200000 });
    side.cmd = [pig];
    side.env = { ...baseEnv(work), PIG_CODING_AGENT_DIR: agentDir, ...(pigProfileDir ? { BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${pigProfileDir}` } : {}) };
    side.ready = (screen) => screen.includes("›");
    sides.push(side);
  }
  for (const p of pis) {
    const side = { label: `Pi ${p.version}` } as Side;
    side.llm = await sideServer(() => side);
    const agentDir = join(work, `agent-pi-${p.version}`);
    writeFakeAgentDir(agentDir, `${side.llm.url}/v1`, { contextWindow: 200000, maxTokens: 200000 });
    side.cmd = p.cmd;
    side.env = { ...baseEnv(work), PATH: `${p.nodeBinDir}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir };
    // Every measured release draws the context use ("N%/200k") in its footer once it is ready.
    side.ready = (screen) => screen.includes("/200k");
    sides.push(side);
  }
  for (const side of sides) side.pane = TmuxPane.start({ command: side.cmd, env: side.env, cwd, width: WIDTH, height: HEIGHT, historyLimit: 1_000_000 });
  for (const side of sides) await side.pane!.waitFor(side.ready, READY_MS, `${side.label}'s prompt`);
  console.error(`[bench] streaming ${answer.text.length} characters (~${Math.round(answer.text.length / CHARS_PER_TOKEN)} tokens) at ${rate} tokens/s into ${sides.map((s) => s.label).join(", ")} at once: ~${Math.round(streamSeconds)} s`);
  for (const side of sides) {
    side.pane!.type(PROMPT);
    side.pane!.keys("Enter");
  }
  // Each side's window ends when its last line is on the screen.
  const deadline = performance.now() + streamSeconds * 1000 * 3 + 60_000;
  while (sides.some((s) => s.endAt === undefined) && performance.now() < deadline) {
    await Bun.sleep(250);
    for (const side of sides) {
      if (side.endAt !== undefined || side.requestAt === undefined) continue;
      if (!side.pane!.screen().includes(answer.lastLine)) continue;
      side.endAt = performance.now();
      const usage = treeUsage(side.pane!.pid());
      side.cpuAtEnd = usage.cpuMs;
      side.hwmBytes = usage.hwmBytes;
      console.error(`[bench] ${side.label}: the last line is on the screen after ${((side.endAt - side.requestAt) / 1000).toFixed(1)} s`);
    }
  }
  for (const side of sides) {
    const history = side.pane!.history();
    const seen = new Set([...history.matchAll(/Section (\d+)\b/g)].map((m) => m[1]));
    side.sectionsSeen = seen.size;
    // Kept with --keep, to see what a side drew.
    writeFileSync(join(work, `${side.label.replace(/\W+/g, "-")}-scrollback.txt`), history);
    if (side.endAt === undefined) console.error(`[bench] ${side.label} never showed the last line; screen:\n${side.pane!.screen()}`);
  }
  if (pigProfileDir !== undefined && pig !== undefined) {
    const pane = sides[0]!.pane!;
    pane.keys("C-d");
    for (let i = 0; i < 100 && !pane.exited(); i++) await Bun.sleep(100);
    console.error(`[bench] pig's CPU profile is in ${pigProfileDir}`);
  }

  const share = (s: Side | undefined) => (s?.endAt === undefined ? undefined : ((s.cpuAtEnd! - s.cpuAtRequest!) / (s.endAt - s.requestAt!)) * 100);
  const of = (p: PiInstall) => sides.find((s) => s.label === `Pi ${p.version}`);
  const pigSide = sides.find((s) => s.label === "pig");
  const pct = (v: number) => `${v.toFixed(1)} %`;
  printReport(
    {
      title: `interactive-stream: a ${Math.round(answer.text.length / CHARS_PER_TOKEN / 1000)}k-token Markdown answer at ${rate} tokens/s in a ${WIDTH}×${HEIGHT} tmux pane, CPU time over the stream`,
      releases: pis,
      rows: [
        {
          metric: "CPU time over the stream, share of one core",
          pig: share(pigSide),
          pi: Object.fromEntries(pis.map((p) => [p.release, share(of(p))])),
          format: pct,
          ratio: "speed",
          target: { kind: "absolute", max: 10, text: "< 10 % of a core" },
        },
        {
          metric: "CPU time over the stream",
          pig: pigSide?.endAt === undefined ? undefined : pigSide.cpuAtEnd! - pigSide.cpuAtRequest!,
          pi: Object.fromEntries(pis.map((p) => { const s = of(p); return [p.release, s?.endAt === undefined ? undefined : s.cpuAtEnd! - s.cpuAtRequest!]; })),
          format: (ms) => `${(ms / 1000).toFixed(1)} s`,
          ratio: "speed",
        },
        {
          metric: "peak RSS (the process tree's VmHWM)",
          pig: pigSide?.hwmBytes,
          pi: Object.fromEntries(pis.map((p) => [p.release, of(p)?.hwmBytes])),
          format: fmtMB,
          ratio: "share",
        },
        {
          metric: "section headings found in the scrollback and on the screen",
          pig: pigSide?.sectionsSeen,
          pi: Object.fromEntries(pis.map((p) => [p.release, of(p)?.sectionsSeen])),
          format: (v) => `${v} of ${answer.sections}`,
          ratio: "none",
        },
      ],
      commands: {
        pig: pigSide === undefined ? "(not run: --pi-only)" : shellLine(pigSide.cmd, pigSide.env),
        pi: Object.fromEntries(pis.map((p) => { const s = of(p)!; return [p.release, shellLine(s.cmd, s.env)]; })),
      },
      notes: [
        `the answer: ${answer.text.length} characters of generated Markdown (${answer.sections} sections), counted as ${CHARS_PER_TOKEN} characters a token; sent in chunks of ${TOKENS_PER_CHUNK} tokens every ${chunkIntervalMs.toFixed(1)} ms on a fixed schedule (the fake LLM's chunkIntervalMs), OpenAI chat completions`,
        `every side streams at the same time, from its own server, in its own tmux pane (TERM=xterm-256color, ${WIDTH}×${HEIGHT}): wall time is shared, CPU time is each side's own`,
        "Pi 1.6.0 draws in the terminal's alternate screen and scrolls its conversation itself, so the terminal's scrollback holds none of it and its heading count is not a check of its output; the window ending with its last line on the screen is",
        "the window runs from the request's arrival to the first screen read (every 250 ms) showing the last line; CPU time is utime + stime from /proc of the pane's process tree",
        ...sides.filter((s) => s.endAt === undefined).map((s) => `${s.label} never showed the last line: no figures`),
      ],
    },
    args.check,
  );
} finally {
  for (const side of sides) {
    side.pane?.kill();
    await side.llm?.close();
  }
  cleanup(work, args.keep);
}
