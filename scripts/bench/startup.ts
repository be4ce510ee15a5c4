// Cold start: `pig --version` vs `pi --version` of every measured Pi release. Both print a version
// and exit, so this measures process start-up and module loading — the floor of every CLI call.
// A compiled Bun hello-world, built with pig's own build flags, is timed in the same rounds: it is
// the floor pig's start-up cannot go below.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { commonArgs } from "./options.ts";
import { ensurePis, piEnv, type PiRelease } from "./pi-install.ts";
import { cleanup, medianMs, pigEnv, requirePig, type Side, timeSides } from "./measure.ts";
import { fmtMs, printReport, type Row, shellLine } from "./report.ts";
import { COMPILE_FLAGS } from "../build-flags.ts";

const args = commonArgs({ runs: 20, warmup: 2 });
const pig = args.piOnly ? undefined : requirePig(args);
const pis = ensurePis(args.pi);
const work = mkdtempSync(join(tmpdir(), "pig-bench-startup-"));
try {
  // Empty agent dirs so nobody reads the user's real settings.
  const agentDir = join(work, "agent");
  mkdirSync(agentDir);

  // Each release must print its own version (0.73.1 on stderr, later ones on stdout), so the timed
  // runs exercise a working install.
  for (const pi of pis) {
    const check = Bun.spawnSync([...pi.cmd, "--version"], { env: piEnv(pi, agentDir), stdout: "pipe", stderr: "pipe", cwd: work });
    const printed = `${check.stdout.toString()}${check.stderr.toString()}`.trim();
    if (check.exitCode !== 0 || !printed.includes(pi.version)) throw new Error(`Pi ${pi.version} --version printed ${JSON.stringify(printed)} (exit ${check.exitCode})`);
  }
  const hello = pig === undefined ? undefined : buildHelloWorld(work);

  type Key = "pig" | "hello" | PiRelease;
  const sides = new Map<Key, Side>();
  if (pig !== undefined) sides.set("pig", { cmd: [pig, "--version"], opts: { env: pigEnv(agentDir), cwd: work } });
  if (hello !== undefined) sides.set("hello", { cmd: [hello], opts: { cwd: work } });
  for (const pi of pis) sides.set(pi.release, { cmd: [...pi.cmd, "--version"], opts: { env: piEnv(pi, agentDir), cwd: work } });
  const samples = await timeSides("--version", sides, args.runs, args.warmup);

  const ms = (key: Key): number | undefined => (samples.has(key) ? medianMs(samples.get(key)!) : undefined);
  const pi = Object.fromEntries(pis.map((p) => [p.release, ms(p.release)])) as Partial<Record<PiRelease, number>>;
  const dash = Object.fromEntries(pis.map((p) => [p.release, "—"])) as Partial<Record<PiRelease, string>>;
  const rows: Row[] = [
    { metric: `\`--version\` wall time (median of ${args.runs})`, pig: ms("pig"), pi, format: fmtMs, ratio: "speed", target: { kind: "speed", factor: 40, word: "faster" } },
    { metric: "compiled Bun hello-world, pig's build flags (the floor)", pig: ms("hello"), pi: {}, piNote: dash, format: fmtMs, ratio: "none" },
  ];
  printReport(
    {
      title: `startup: --version, median of ${args.runs} rounds after ${args.warmup} warm-up`,
      releases: pis,
      rows,
      commands: {
        pig: pig === undefined ? "(not run: --pi-only)" : shellLine([pig, "--version"]),
        pi: Object.fromEntries(pis.map((p) => [p.release, shellLine([...p.cmd, "--version"], { PI_OFFLINE: "1" })])),
      },
      notes: hello === undefined ? [] : [`the hello-world is \`console.log("1.0")\` built like dist/pig (scripts/build.ts flags): ${shellLine([hello])}`],
    },
    args.check,
  );
} finally {
  cleanup(work, args.keep);
}

/** `console.log("1.0")` compiled with the flags scripts/build.ts gives pig (without its code splitting, which a one-line program has no use for). */
function buildHelloWorld(dir: string): string {
  const src = join(dir, "hello.ts");
  const out = join(dir, "hello");
  writeFileSync(src, 'console.log("1.0");\n');
  const bun = resolve(import.meta.dir, "..", "..", "node_modules", ".bin", "bun");
  const built = Bun.spawnSync([bun, "build", src, ...COMPILE_FLAGS, "--outfile", out], { stdout: "ignore", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`building the hello-world failed: ${built.stderr.toString()}`);
  return out;
}
