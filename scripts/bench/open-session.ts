// Opening a large session as an RPC client does: `<agent> --mode rpc --session FILE` and one
// command, from the spawn until its answer has arrived:
//   - `get_state` (the target): start-up, reading the whole file with its load-time checks, and
//     what the session is (id, model, message count);
//   - `get_messages` (for information): the same, then the branch's context, every message as
//     JSON (~50 MB of output: the floor there is writing and reading it).
// One generated 50 MB / 20,000-entry v3 session; pig's built binary against each Pi release's bin.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { writeSession } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, type PiRelease } from "./pi-install.ts";
import { cleanup, dropPageCache, interleave, median, pigEnv, requirePig } from "./measure.ts";
import { buildOpenFloors, type OpenFloor } from "./open-floor.ts";
import { fmtMB, fmtMs, printReport, shellLine } from "./report.ts";
import { type RpcOpenCommand, type RpcOpenSide, type RpcOpenSample, timeRpcOpen } from "./rpc-open.ts";

const SIZE_MB = 50;
const ENTRIES = 20_000;

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-open-"));
try {
  const cwd = join(work, "cwd");
  const file = join(work, "session.jsonl");
  await Bun.write(join(cwd, ".keep"), "");
  const gen = await writeSession(file, { targetBytes: SIZE_MB * 1024 * 1024, entries: ENTRIES, seed: 1, cwd });
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${file}: ${fmtMB(gen.bytes)}, ${gen.lines} lines`);

  // Both read a model from their agent dir (none is asked: get_messages needs no request).
  type Side = "pig" | `floor-${OpenFloor}` | PiRelease;
  const sides = new Map<Side, RpcOpenSide>();
  const lines: { pig: string; pi: Partial<Record<PiRelease, string>> } = { pig: "(not run: --pi-only)", pi: {} };
  const shown = (cmd: readonly string[], env: Record<string, string>) => `echo '{"type":"get_state"}' (or get_messages) | ${shellLine([...cmd, "--mode", "rpc", "--session", file], env)}`;
  if (pig !== undefined) {
    const agentDir = join(work, "agent-pig");
    writeFakeAgentDir(agentDir, "http://127.0.0.1:9/v1");
    sides.set("pig", { cmd: [pig], env: pigEnv(agentDir), cwd });
    lines.pig = shown([pig], { PIG_CODING_AGENT_DIR: agentDir });
  }
  for (const p of pis) {
    const agentDir = join(work, `agent-pi-${p.version}`);
    writeFakeAgentDir(agentDir, "http://127.0.0.1:9/v1");
    sides.set(p.release, { cmd: p.cmd, env: piEnv(p, agentDir), cwd });
    lines.pi[p.release] = shown(p.cmd, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir });
  }

  // The floors, pig's build flags and line scanner without the rest of pig: timed with get_state, beside pig.
  const floors = pig === undefined ? undefined : buildOpenFloors(work);
  for (const [name, bin] of Object.entries(floors ?? {}) as [OpenFloor, string][]) sides.set(`floor-${name}`, { cmd: [bin], env: {}, cwd });

  // Untimed, first: every side must give the same answers, or a ratio compares different work.
  const notes: string[] = [];
  const answer = async (key: "pig" | PiRelease, command: RpcOpenCommand) => (await timeRpcOpen(sides.get(key)!, file, command, true)).data;
  const reference = pig === undefined ? undefined : { state: await answer("pig", "get_state"), messages: await answer("pig", "get_messages") };
  if (reference !== undefined) notes.push(`pig: messageCount ${String(reference.state?.messageCount)}, get_messages gives ${(reference.messages?.messages as unknown[] | undefined)?.length} messages`);
  for (const p of pis) {
    const state = await answer(p.release, "get_state");
    const messages = await answer(p.release, "get_messages");
    if (reference === undefined) continue;
    const sameCount = state?.messageCount === reference.state?.messageCount;
    const sameMessages = Bun.deepEquals(messages?.messages, reference.messages?.messages);
    notes.push(`Pi ${p.version}: messageCount ${sameCount ? "the same" : `DIFFERS (${String(state?.messageCount)})`}; messages ${sameMessages ? "identical to pig's" : "DIFFER from pig's (that ratio compares different work)"}`);
  }

  // Every executable as read back from disk (see dropPageCache); the warm-up runs read it in again.
  const executables = [...new Set([...sides.values()].map((s) => s.cmd[0]!))];
  dropPageCache(executables);
  notes.push(`peak RSS is the process's VmHWM just before it is stopped; the page cache of ${executables.join(", ")} was dropped before the warm-up runs`);
  notes.push("pig reads the file once at open (every line checked as it is scanned) and message bodies only when asked for them; Pi parses every entry at open");
  if (floors !== undefined) notes.push(`the floors are scripts/bench/open-floor.ts's programs, compiled with pig's build flags: ${[floors.read, floors.check, floors.parse].map((bin) => shellLine([bin, "--mode", "rpc", "--session", file])).join("; ")} (each reads the file its last argument names)`);
  for (const n of notes) console.error(`[bench] ${n}`);
  const samples = new Map<RpcOpenCommand, Map<Side, RpcOpenSample[]>>();
  for (const command of ["get_state", "get_messages"] as const) {
    // The floors answer get_state only: they stand for opening, not for writing the context out.
    const keys = [...sides.keys()].filter((key) => command === "get_state" || !key.startsWith("floor-"));
    samples.set(command, await interleave(`open-session ${command}`, keys, args.runs, args.warmup, (key) => timeRpcOpen(sides.get(key)!, file, command)));
  }

  const of = (command: RpcOpenCommand, key: Side, pick: "ms" | "cpuMs" | "maxRssBytes") => {
    const s = samples.get(command)!.get(key) ?? [];
    return pick === "maxRssBytes" ? Math.max(...s.map((x) => x.maxRssBytes)) : median(s.map((x) => x[pick]));
  };
  const dash = Object.fromEntries(pis.map((p) => [p.release, "—"])) as Partial<Record<PiRelease, string>>;
  const floorRow = (name: OpenFloor, metric: string) => ({ metric, pig: floors === undefined ? undefined : of("get_state", `floor-${name}`, "ms"), pi: {}, piNote: dash, format: fmtMs, ratio: "none" as const });
  const row = (command: RpcOpenCommand, pick: "ms" | "cpuMs" | "maxRssBytes") => ({
    pig: pig === undefined ? undefined : of(command, "pig", pick),
    pi: Object.fromEntries(pis.map((p) => [p.release, of(command, p.release, pick)])) as Partial<Record<PiRelease, number>>,
  });
  printReport(
    {
      title: `open-session: ${fmtMB(gen.bytes)} / ${ENTRIES} entries, --mode rpc --session FILE and one command, median of ${args.runs} rounds`,
      releases: pis,
      rows: [
        { metric: "open, `get_state`: spawn → answer (median)", ...row("get_state", "ms"), format: fmtMs, ratio: "speed", target: { kind: "speed", factor: 10, word: "faster" } },
        { metric: "open, `get_state`: peak RSS (max)", ...row("get_state", "maxRssBytes"), format: fmtMB, ratio: "share", target: { kind: "share", max: 1 / 3, text: "≤ ⅓ (0.33)" } },
        { metric: "open, `get_state`: CPU time to the answer, all threads (median)", ...row("get_state", "cpuMs"), format: fmtMs, ratio: "speed" },
        floorRow("read", "floor: a program built with pig's flags reading the file (1 MiB reads, lines found, UTF-8 checked), spawn → done"),
        floorRow("check", "the same program, also pig's check that every line is one JSON object (src/session/json-check.ts)"),
        floorRow("parse", "the same program, `JSON.parse` of every line instead"),
        { metric: "open, `get_messages` (the whole context out): spawn → answer", ...row("get_messages", "ms"), format: fmtMs, ratio: "speed" },
        { metric: "open, `get_messages`: peak RSS (max)", ...row("get_messages", "maxRssBytes"), format: fmtMB, ratio: "share" },
      ],
      commands: lines,
      notes,
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
