// Opening a large session in the interactive mode: `pig --session FILE` vs `pi --session FILE`
// in a pseudo-terminal (120×40), on one generated 50 MB / 20,000-entry v3 session. Measured
// from spawn to the screen being ready — for pig, the prompt drawn under the replayed
// conversation's separator; for Pi, its footer (the context percentage) drawn under the
// editor — and to the last byte written before the terminal then stays quiet for a second
// ("settled"). Pi's terminal queries (kitty keyboard, cursor position) are answered as a
// terminal would. In rounds of their own (typing would move "settled"), two letters are typed
// the moment the screen is ready, and timed until they are echoed: a prompt that is drawn but
// does not answer keys yet is not ready.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSession } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, type PiRelease } from "./pi-install.ts";
import { cleanup, median, pigEnv, requirePig } from "./measure.ts";
import { fmtMB, fmtMs, printReport, shellLine } from "./report.ts";

const SIZE_MB = 50;
const ENTRIES = 20_000;
const QUIET_MS = 1000;
const TIMEOUT_MS = 180_000;

interface Sample {
  readyMs: number;
  settledMs: number;
  /** Ready → the letters typed then echoed (echo rounds only). */
  echoMs?: number;
}

/** Typed once the screen is ready: plain letters (no command, mention or shell prefix), a pair rare in a replayed screen. */
const PROBE = "xq";

/** What a terminal answers to the queries a full-screen program sends while starting. */
// The 16 colours of xterm's default palette, for the OSC 4 palette queries.
const PALETTE = ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5", "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"];
const rgb = (hex: string): string => `rgb:${hex.slice(0, 2).repeat(2)}/${hex.slice(2, 4).repeat(2)}/${hex.slice(4, 6).repeat(2)}`;

/**
 * What a terminal answers to the queries a full-screen program sends while starting. Pi 0.87.1
 * and later also ask for the foreground, background and palette colours (OSC 10, 11 and 4);
 * left unanswered, Pi waits about three seconds for them before it draws its footer.
 */
const REPLIES: readonly [string, string][] = [
  ["\x1b[?u", "\x1b[?0u"],
  ["\x1b[c", "\x1b[?62;22c"],
  ["\x1b[6n", "\x1b[1;1R"],
  ["\x1b[16t", "\x1b[6;16;8t"],
  ["\x1b[14t", "\x1b[4;640;960t"],
  ["\x1b]10;?\x07", `\x1b]10;${rgb("e5e5e5")}\x07`],
  ["\x1b]11;?\x07", `\x1b]11;${rgb("000000")}\x07`],
  ...PALETTE.map((hex, i): [string, string] => [`\x1b]4;${i};?\x07`, `\x1b]4;${i};${rgb(hex)}\x07`]),
];

/**
 * Runs `cmd` in a PTY until its output has been quiet for QUIET_MS; when `ready` matched and when
 * output settled. With `echo`, PROBE is typed when `ready` matches, and the run ends once it is echoed.
 */
async function timeToScreen(cmd: string[], env: Record<string, string | undefined>, cwd: string, ready: (screen: string) => boolean, echo = false): Promise<Sample> {
  const decoder = new TextDecoder();
  let screen = "";
  let last = 0;
  let readyAt: number | undefined;
  let typedAt: number | undefined;
  let echoAt: number | undefined;
  // What was written since the letters were typed: only there can their echo be.
  let sinceTyped = "";
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
        if (typedAt !== undefined && echoAt === undefined) {
          sinceTyped = (sinceTyped + text).slice(-20_000);
          if (sinceTyped.includes(PROBE)) echoAt = last;
        }
        if (readyAt === undefined && ready(screen)) {
          readyAt = last;
          if (echo) {
            terminal.write(PROBE);
            typedAt = performance.now();
          }
        }
      },
    },
  });
  while (performance.now() - start < TIMEOUT_MS) {
    await Bun.sleep(echo ? 5 : 50);
    if (echo ? echoAt !== undefined : readyAt !== undefined && performance.now() - last >= QUIET_MS) break;
  }
  proc.kill("SIGKILL");
  await proc.exited;
  if (last === 0) throw new Error(`${cmd[0]} printed nothing in ${TIMEOUT_MS} ms`);
  if (readyAt === undefined) throw new Error(`${cmd[0]} never showed its prompt; last output:\n${screen.slice(-2000)}`);
  // Not echoed within the time limit: the time waited, a lower bound, rather than no figure.
  if (echo && echoAt === undefined) console.error(`[bench] ${cmd[0]} did not echo "${PROBE}" within ${fmtMs(TIMEOUT_MS)}`);
  return { readyMs: readyAt - start, settledMs: last - start, ...(echo ? { echoMs: (echoAt ?? performance.now()) - readyAt } : {}) };
}

function writeModels(agentDir: string): void {
  mkdirSync(agentDir, { recursive: true });
  const model = { id: "bench-model", name: "bench-model", reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 16384, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { bench: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "bench-key", models: [model] } } }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "bench", defaultModel: "bench-model", quietStartup: true }));
}

// Pi needs ~20 s a run here, for each release: 3 rounds by default.
const args = commonArgs({ runs: 3, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-replay-"));
try {
  const file = join(work, "session.jsonl");
  const gen = await writeSession(file, { targetBytes: SIZE_MB * 1024 * 1024, entries: ENTRIES, seed: 1, cwd: work });
  console.error(`[bench] generated ${file}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);
  const pigAgent = join(work, "pig-agent");
  writeModels(pigAgent);
  const piAgents = new Map(pis.map((p) => [p.release, join(work, `pi-agent-${p.version}`)]));
  for (const dir of piAgents.values()) writeModels(dir);
  const pigCmd = pig === undefined ? undefined : [pig, "--session", file];
  const piCmds = new Map(pis.map((p) => [p.release, [...p.cmd, "--session", file]]));
  const pigReady = (screen: string) => {
    const at = screen.lastIndexOf("end of the saved conversation");
    return at >= 0 && screen.indexOf("›", at) > at;
  };
  // Every measured release draws the context use as "N%/200k" in its footer once it is ready.
  const piReady = (screen: string) => screen.includes("%/200k");
  type Key = "pig" | PiRelease;
  const keys: Key[] = [...(pigCmd === undefined ? [] : (["pig"] as const)), ...pis.map((p) => p.release)];
  const runs = new Map<Key, Sample[]>(keys.map((k) => [k, []]));
  const echoes = new Map<Key, Sample[]>(keys.map((k) => [k, []]));
  // Rounds go through everyone, starting one further each round, so a busy moment falls on all
  // alike; then as many echo rounds, for pig and the latest Pi (the others take 15–25 s a run).
  const echoKeys = keys.filter((k) => k === "pig" || k === "latest");
  for (const echo of [false, true]) {
    const round = echo ? echoKeys : keys;
    for (let i = 0; i < args.warmup + args.runs; i++) {
      for (let j = 0; j < round.length; j++) {
        const key = round[(i + j) % round.length]!;
        const pi = pis.find((p) => p.release === key);
        // This process timestamps the screen: the tens of MB an earlier Pi run wrote through it are
        // collected now, and the killed process given a moment to go, not during the next run.
        Bun.gc(true);
        await Bun.sleep(500);
        const sample =
          pi === undefined
            ? await timeToScreen(pigCmd!, pigEnv(pigAgent), work, pigReady, echo)
            : await timeToScreen(piCmds.get(pi.release)!, piEnv(pi, piAgents.get(pi.release)!), work, piReady, echo);
        const what = echo ? `ready ${fmtMs(sample.readyMs)}, "${PROBE}" echoed ${fmtMs(sample.echoMs!)} later` : `ready ${fmtMs(sample.readyMs)}, settled ${fmtMs(sample.settledMs)}`;
        console.error(`[bench] ${key === "pig" ? "pig" : `Pi ${pi!.version}`}: ${what}${i < args.warmup ? " (warm-up)" : ""}`);
        if (i >= args.warmup) (echo ? echoes : runs).get(key)!.push(sample);
      }
    }
  }
  const med = (key: Key, pick: (s: Sample) => number, from = runs) => (from.get(key)?.length ? median(from.get(key)!.map(pick)) : undefined);
  const per = (pick: (s: Sample) => number, from = runs) => Object.fromEntries(pis.map((p) => [p.release, med(p.release, pick, from)])) as Partial<Record<PiRelease, number>>;
  const echoMs = (s: Sample) => s.echoMs!;
  // A median of a few rounds hides a round that waited a minute: the slowest is shown too.
  const slowest = (key: Key) => (echoes.get(key)?.length ? Math.max(...echoes.get(key)!.map(echoMs)) : undefined);
  printReport(
    {
      title: `replay: opening a ${fmtMB(gen.bytes)} / ${ENTRIES}-entry session in the interactive mode, median of ${args.runs} rounds after ${args.warmup} warm-up`,
      releases: pis,
      rows: [
        {
          metric: "to the prompt under the conversation (Pi: its footer drawn)",
          pig: med("pig", (s) => s.readyMs),
          pi: per((s) => s.readyMs),
          format: fmtMs,
          ratio: "speed",
          target: { kind: "absolute", max: 200, text: "< 200 ms" },
        },
        {
          metric: `to a screen that then stays quiet for ${QUIET_MS / 1000} s`,
          pig: med("pig", (s) => s.settledMs),
          pi: per((s) => s.settledMs),
          format: fmtMs,
          ratio: "speed",
          target: { kind: "beats", text: "faster than the latest Pi" },
        },
        {
          metric: `ready → two letters typed then echoed (pig and the latest Pi)`,
          pig: med("pig", echoMs, echoes),
          pi: per(echoMs, echoes),
          format: fmtMs,
          ratio: "speed",
        },
        {
          metric: "ready → two letters echoed: the slowest round",
          pig: slowest("pig"),
          pi: Object.fromEntries(pis.map((p) => [p.release, slowest(p.release)])) as Partial<Record<PiRelease, number>>,
          format: fmtMs,
          ratio: "speed",
        },
      ],
      commands: {
        pig: pigCmd === undefined ? "(not run: --pi-only)" : shellLine(pigCmd, { PIG_CODING_AGENT_DIR: pigAgent }),
        pi: Object.fromEntries(pis.map((p) => [p.release, shellLine(piCmds.get(p.release)!, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: piAgents.get(p.release)! })])),
      },
      notes: ["in a 120×40 pseudo-terminal (TERM=xterm-256color); Pi's terminal queries are answered as a terminal would"],
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
