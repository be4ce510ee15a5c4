// The Go RPC client (sdk/go/rpc) driving pig and upstream Pi 0.87.1: the example program
// examples/go/oneshot asks one question through `--mode rpc` and prints the answer. Both agents
// get the same fake model (in this process), in worlds of their own; each run must print the
// model's answer, so the figure is also a check that the client works with Pi's protocol.
//   1. `oneshot -- hello`: start the agent, one prompt, the answer, exit — wall time and peak RSS
//      (the largest process: the agent);
//
//   npm run build && node_modules/.bin/bun scripts/bench/go-rpc.ts [--runs N] [--warmup N]
//
// Needs `go`; Pi and Node 22 are installed into $TMPDIR on first use (the npm registry).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { makeWorld, removeWorld, runIn, type World } from "../compat/observe-agent.ts";
import { maxRss, medianMs, type Side, timeSides } from "./measure.ts";
import { ensurePi } from "./pi-install.ts";

const { values: argv } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: "string", default: "20" }, warmup: { type: "string", default: "3" } },
});
const runs = Number(argv.runs);
const warmup = Number(argv.warmup);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) throw new Error("--runs must be an integer ≥ 1 and --warmup ≥ 0");

const ROOT = resolve(import.meta.dir, "..", "..");
const go = Bun.which("go");
if (!go) throw new Error("go is not on PATH (Debian: apt install golang-go)");
const bin = join(ROOT, "examples", "go", "bin");
mkdirSync(bin, { recursive: true });
const built = Bun.spawnSync([go, "build", "-o", `${bin}/`, "./oneshot"], { cwd: join(ROOT, "examples", "go"), stdout: "pipe", stderr: "pipe" });
if (built.exitCode !== 0) throw new Error(`go build ./oneshot failed:\n${built.stderr.toString()}`);
const oneshot = join(bin, "oneshot");

const pi = ensurePi("0.87.1");
// Text mode: every request is answered "ok".
const ANSWER = "ok";
const llm = await startFakeLlm({ mode: "text" });
const worlds: World[] = [];

/** The agent's executable for `oneshot -pig`: pig itself, or a script that runs Pi under Node 22. */
function agentExecutable(world: World, agent: "pig" | "pi"): string {
  if (agent === "pig") return world.command[0]!;
  const wrapper = join(world.work, "pi");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${world.command.map((part) => `'${part}'`).join(" ")} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

try {
  const sides = new Map<string, Side>();
  for (const agent of ["pig", "pi"] as const) {
    const world = makeWorld(llm, agent, pi);
    worlds.push(world);
    const cmd = [oneshot, "-pig", agentExecutable(world, agent), "-model", "fake/fake-model", "--", "hello"];
    // Once, checked: the answer must come back through the client.
    const first = await runIn(world, cmd);
    if (first.code !== 0 || first.stdout.trim() !== ANSWER) throw new Error(`oneshot against ${agent} exited ${first.code}, printed ${JSON.stringify(first.stdout)}:\n${first.stderr.slice(-1500)}`);
    sides.set(agent, { cmd, opts: { env: world.env, cwd: world.cwd, rss: true } });
  }
  const samples = await timeSides("oneshot through sdk/go/rpc", sides, runs, warmup);
  const ms = (k: string) => medianMs(samples.get(k)!);
  const mb = (k: string) => maxRss(samples.get(k)!) / 1024 / 1024;
  console.log(`| Go client, \`oneshot -- hello\` (${runs} runs, median) | pig | Pi 0.87.1 | Pi / pig |`);
  console.log("|---|---|---|---|");
  console.log(`| wall time | ${ms("pig").toFixed(0)} ms | ${ms("pi").toFixed(0)} ms | ${(ms("pi") / ms("pig")).toFixed(2)}× |`);
  console.log(`| peak RSS | ${mb("pig").toFixed(0)} MB | ${mb("pi").toFixed(0)} MB | ${(mb("pi") / mb("pig")).toFixed(2)}× |`);
  console.log(`\nBoth answered "${ANSWER}" through the same client on every run.`);
} finally {
  await llm.close();
  for (const world of worlds) removeWorld(world);
}
