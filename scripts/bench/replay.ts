// Opening a large session in the interactive mode: `pig --session FILE` vs `pi --session FILE`
// in a pseudo-terminal (120×40), on one generated 50 MB / 20,000-entry v3 session. Measured
// from spawn to the screen being ready — for pig, the prompt drawn under the replayed
// conversation's separator; for Pi, its footer (the context percentage) drawn under the
// editor — and to the last byte written before the terminal then stays quiet for a second
// ("settled"). Pi's terminal queries (kitty keyboard, cursor position) are answered as a
// terminal would.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { cleanup, commonArgs, ensurePi, fmtMB, fmtMs, median, piEnv, pigEnv, printSummary, requirePig, shellLine } from "./pi-install.ts";

const SIZE_MB = 50;
const ENTRIES = 20_000;
const QUIET_MS = 1000;
const TIMEOUT_MS = 180_000;

interface Sample {
  readyMs: number;
  settledMs: number;
}

/** What a terminal answers to the queries a full-screen program sends while starting. */
const REPLIES: readonly [string, string][] = [
  ["\x1b[?u", "\x1b[?0u"],
  ["\x1b[c", "\x1b[?62;22c"],
  ["\x1b[6n", "\x1b[1;1R"],
  ["\x1b[16t", "\x1b[6;16;8t"],
  ["\x1b[14t", "\x1b[4;640;960t"],
];

/** Runs `cmd` in a PTY until its output has been quiet for QUIET_MS; when `ready` matched and when output settled. */
async function timeToScreen(cmd: string[], env: Record<string, string | undefined>, cwd: string, ready: (screen: string) => boolean): Promise<Sample> {
  const decoder = new TextDecoder();
  let screen = "";
  let last = 0;
  let readyAt: number | undefined;
  const start = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...env, TERM: "xterm-256color", COLUMNS: "120", LINES: "40" },
    terminal: {
      cols: 120,
      rows: 40,
      data(terminal, bytes) {
        last = performance.now();
        const text = decoder.decode(bytes, { stream: true });
        for (const [query, reply] of REPLIES) if (text.includes(query)) terminal.write(reply);
        // Only the end is searched: Pi writes tens of megabytes while it draws a long session.
        screen = (screen + text).slice(-20_000);
        if (readyAt === undefined && ready(screen)) readyAt = last;
      },
    },
  });
  while (performance.now() - start < TIMEOUT_MS) {
    await Bun.sleep(50);
    if (readyAt !== undefined && performance.now() - last >= QUIET_MS) break;
  }
  proc.kill("SIGKILL");
  await proc.exited;
  if (last === 0) throw new Error(`${cmd[0]} printed nothing in ${TIMEOUT_MS} ms`);
  if (readyAt === undefined) throw new Error(`${cmd[0]} never showed its prompt; last output:\n${screen.slice(-2000)}`);
  return { readyMs: readyAt - start, settledMs: last - start };
}

function writeModels(agentDir: string): void {
  mkdirSync(agentDir, { recursive: true });
  const model = { id: "bench-model", name: "bench-model", reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 16384, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { bench: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "bench-key", models: [model] } } }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "bench", defaultModel: "bench-model", quietStartup: true }));
}

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig();
const pi = ensurePi();
const work = mkdtempSync(join(tmpdir(), "pig-bench-replay-"));
try {
  const file = join(work, "session.jsonl");
  const gen = await writeSession(file, { targetBytes: SIZE_MB * 1024 * 1024, entries: ENTRIES, seed: 1, cwd: work });
  console.error(`[bench] generated ${file}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);
  const pigAgent = join(work, "pig-agent");
  const piAgent = join(work, "pi-agent");
  writeModels(pigAgent);
  writeModels(piAgent);
  const pigCmd = pig === undefined ? undefined : [pig, "--session", file];
  const piCmd = [pi.bin, "--session", file];
  const pigReady = (screen: string) => {
    const at = screen.lastIndexOf("end of the saved conversation");
    return at >= 0 && screen.indexOf("›", at) > at;
  };
  const pigRuns: Sample[] = [];
  const piRuns: Sample[] = [];
  // Alternate the two so a busy moment of the machine falls on both alike.
  for (let i = 0; i < args.warmup + args.runs; i++) {
    const pigSample = pigCmd === undefined ? undefined : await timeToScreen(pigCmd, pigEnv(pigAgent), work, pigReady);
    const piSample = await timeToScreen(piCmd, piEnv(piAgent), work, (screen) => screen.includes("%/200k"));
    if (i < args.warmup) continue;
    if (pigSample) pigRuns.push(pigSample);
    piRuns.push(piSample);
  }
  const pigReadyMs = pigRuns.length > 0 ? median(pigRuns.map((s) => s.readyMs)) : undefined;
  const piReadyMs = median(piRuns.map((s) => s.readyMs));
  const pigSettled = pigRuns.length > 0 ? median(pigRuns.map((s) => s.settledMs)) : undefined;
  const piSettled = median(piRuns.map((s) => s.settledMs));
  printSummary(
    `replay: opening a ${fmtMB(gen.bytes)} / ${ENTRIES}-entry session in the interactive mode, median of ${args.runs} runs`,
    [
      {
        metric: "to the prompt under the conversation",
        pig: pigReadyMs === undefined ? "n/a" : fmtMs(pigReadyMs),
        pi: fmtMs(piReadyMs),
        ratio: pigReadyMs === undefined ? "n/a" : `${(piReadyMs / pigReadyMs).toFixed(1)}× faster`,
        target: "< 200 ms",
        met: pigReadyMs === undefined ? undefined : pigReadyMs < 200,
      },
      {
        metric: "to a settled screen",
        pig: pigSettled === undefined ? "n/a" : fmtMs(pigSettled),
        pi: fmtMs(piSettled),
        ratio: pigSettled === undefined ? "n/a" : `${(piSettled / pigSettled).toFixed(1)}× faster`,
        target: "faster than Pi",
        met: pigSettled === undefined ? undefined : pigSettled < piSettled,
      },
    ],
    { pig: pigCmd === undefined ? "(not run: --pi-only)" : shellLine(pigCmd), pi: shellLine(piCmd, { PI_OFFLINE: "1" }) },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
