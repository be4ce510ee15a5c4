// Finding a session among many, as a user does it from the command line: `--session <id prefix>`
// with a prefix no session has, so every side searches every project and then refuses with "No
// session found matching '…'" (exit 1). The agent dir holds 2,000 sessions in 20 project dirs
// (mostly 2–200 KB, three of 50 MB): the shape of a long-lived ~/.pi/agent. Pi runs through its
// package's bin; pig's `sessions list --all --json` is timed beside it for information.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateAgentDir } from "./gen-sessions.ts";
import { commonArgs } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, type PiRelease } from "./pi-install.ts";
import { cleanup, medianMs, pigEnv, requirePig, type Side, timeSides } from "./measure.ts";
import { fmtMB, fmtMs, printReport, type Row, shellLine } from "./report.ts";

const CORPUS = { sessions: 2_000, projects: 20, big: 3, bigBytes: 50 * 1024 * 1024, seed: 7 };
// Generated ids are hex: a prefix with a non-hex letter matches none of them.
const NO_SUCH_ID = "zz-no-such-session";
const REFUSAL = `No session found matching '${NO_SUCH_ID}'`;

const args = commonArgs({ runs: 5, warmup: 1 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-list-"));
try {
  const agentDir = join(work, "agent");
  const cwd = join(work, "cwd");
  const t0 = performance.now();
  const gen = await generateAgentDir(agentDir, CORPUS);
  await Bun.write(join(cwd, ".keep"), "");
  Bun.gc(true); // a smaller parent makes each spawn cheaper and steadier
  console.error(`[bench] generated ${gen.files} sessions (${fmtMB(gen.bytes)}) in ${fmtMs(performance.now() - t0)}`);

  const lookup = ["--session", NO_SUCH_ID, "-p", "hello"];
  type Key = "pig" | "pig-list" | PiRelease;
  const sides = new Map<Key, Side>();
  if (pig !== undefined) {
    sides.set("pig", { cmd: [pig, ...lookup], opts: { env: pigEnv(agentDir), cwd, exitCode: 1 } });
    sides.set("pig-list", { cmd: [pig, "sessions", "list", "--all", "--json"], opts: { env: pigEnv(agentDir), cwd } });
  }
  for (const p of pis) sides.set(p.release, { cmd: [...p.cmd, ...lookup], opts: { env: piEnv(p, agentDir), cwd, exitCode: 1 } });

  // Untimed, first: every side must refuse the same way, or the ratio compares different work.
  const notes: string[] = [];
  for (const [key, side] of sides) {
    if (key === "pig-list") continue;
    const run = Bun.spawnSync([...side.cmd], { env: side.opts.env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const said = `${run.stdout.toString()}${run.stderr.toString()}`;
    if (run.exitCode !== 1 || !said.includes(REFUSAL)) {
      throw new Error(`${key}: expected exit 1 and "${REFUSAL}", got exit ${run.exitCode}: ${said.trim().slice(0, 400)}`);
    }
  }
  notes.push(`every side searched all ${gen.files} sessions and refused with "${REFUSAL}" (exit 1), checked before the timing`);
  notes.push("pig reads each file only as far as its header to match an id; Pi 1.6.0 lists the current project's sessions, then every project's (SessionManager.list, then listAll), reading each file whole");

  const samples = await timeSides("list-sessions", sides, args.runs, args.warmup);
  const rows: Row[] = [
    {
      metric: `\`--session <prefix>\` matching none of ${gen.files} sessions: wall time`,
      pig: samples.has("pig") ? medianMs(samples.get("pig")!) : undefined,
      pi: Object.fromEntries(pis.map((p) => [p.release, medianMs(samples.get(p.release)!)])),
      format: fmtMs,
      ratio: "speed",
      target: { kind: "speed", factor: 10, word: "faster" },
    },
  ];
  if (samples.has("pig-list")) {
    rows.push({ metric: "pig sessions list --all --json (every summary; Pi has no command for it)", pig: medianMs(samples.get("pig-list")!), pi: {}, format: fmtMs, ratio: "none" });
  }
  const line = (key: Key, extra: Record<string, string>) => `${shellLine(sides.get(key)!.cmd, extra)} > /dev/null`;
  printReport(
    {
      title: `list-sessions: find a session among ${gen.files} (${fmtMB(gen.bytes)}), median of ${args.runs} rounds`,
      releases: pis,
      rows,
      commands: {
        pig: pig === undefined ? "(not run: --pi-only)" : `${line("pig", { PIG_CODING_AGENT_DIR: agentDir })}; ${line("pig-list", { PIG_CODING_AGENT_DIR: agentDir })}`,
        pi: Object.fromEntries(pis.map((p) => [p.release, line(p.release, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir })])),
      },
      notes,
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}
