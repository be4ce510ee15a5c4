/**
 * A Piglet Binary with 10 linked extensions vs plain pig vs the same 10 loaded with `-e` (out of
 * process): time from spawn to the RPC answer listing every extension command (start-up with the
 * extensions registered), the memory of pig and every process it started at that moment, and
 * `--version`. Run: node_modules/.bin/bun scripts/bench/piglet-binary.ts [--runs N]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
const runsAt = process.argv.indexOf("--runs");
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 10;
const COUNT = 10;
const pig = join(root, "dist", "pig");

const work = mkdtempSync(join(tmpdir(), "pig-bench-piglet-"));
try {
  const exts: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const path = join(work, `ext-${i}.ts`);
    writeFileSync(
      path,
      `import { Type } from "typebox";
import type { ExtensionAPI } from "pig/extension";
export default function (pi: ExtensionAPI) {
  pi.registerTool({ name: "tool_${i}", label: "Tool ${i}", description: "Bench tool ${i}", parameters: Type.Object({ x: Type.String() }),
    async execute(_id, p) { return { content: [{ type: "text", text: p.x }], details: {} }; } });
  pi.registerCommand("cmd-${i}", { description: "Bench command ${i}", handler: async () => {} });
  pi.on("before_agent_start", () => undefined);
}
`,
    );
    exts.push(path);
  }
  const build = Bun.spawnSync([join(root, "node_modules", ".bin", "bun"), join(root, "scripts", "build.ts")], { cwd: root, stdout: "ignore", stderr: "inherit" });
  if (build.exitCode !== 0) throw new Error("building dist/pig failed");
  const piglet = join(work, "piglet");
  const t0 = performance.now();
  const made = Bun.spawnSync([pig, "build", ...exts.flatMap((e) => ["-e", e]), "-o", piglet], { cwd: work, stdout: "ignore", stderr: "inherit" });
  if (made.exitCode !== 0) throw new Error("pig build failed");
  const buildMs = performance.now() - t0;

  const agentDir = join(work, "agent");
  mkdirSync(agentDir);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: agentDir, PIG_CODING_AGENT_DIR: agentDir };

  const variants: { name: string; cmd: string[]; commands: number }[] = [
    { name: "plain pig", cmd: [pig], commands: 0 },
    { name: `Piglet Binary, ${COUNT} linked`, cmd: [piglet], commands: COUNT },
    { name: `pig -e ×${COUNT} (out of process)`, cmd: [pig, ...exts.flatMap((e) => ["-e", e])], commands: COUNT },
  ];
  const rows: string[] = [];
  for (const v of variants) {
    const ready: number[] = [];
    const rss: number[] = [];
    const version: number[] = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const { ms, kb } = await readyRun(v.cmd, env, work, v.commands);
      const vt = performance.now();
      Bun.spawnSync([v.cmd[0]!, "--version"], { env, stdout: "ignore" });
      if (r === 0) continue; // warm-up
      ready.push(ms);
      rss.push(kb / 1024);
      version.push(performance.now() - vt);
    }
    rows.push(`| ${v.name} | ${median(ready).toFixed(1)} | ${median(rss).toFixed(1)} | ${median(version).toFixed(1)} |`);
  }
  console.log(`pig build of ${COUNT} extensions: ${(buildMs / 1000).toFixed(1)} s; medians of ${RUNS} runs\n`);
  console.log("| | spawn → commands listed (ms) | RSS, pig + children (MB) | --version (ms) |\n|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Spawns pig in RPC mode, asks for the commands until all `count` extension commands are there. */
async function readyRun(cmd: string[], env: Record<string, string>, cwd: string, count: number): Promise<{ ms: number; kb: number }> {
  const start = performance.now();
  const proc = Bun.spawn([...cmd, "--mode", "rpc", "--no-session"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  let buffer = "";
  let n = 0;
  const ask = () => {
    proc.stdin.write(`${JSON.stringify({ type: "get_commands", id: `q${++n}` })}\n`);
    proc.stdin.flush();
  };
  ask();
  let ms = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${cmd[0]} ended before it was ready`);
    buffer += new TextDecoder().decode(value);
    let nl: number;
    let got = -1;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as { type?: string; data?: { commands?: { source: string }[] } };
      buffer = buffer.slice(nl + 1);
      if (line.type === "response") got = (line.data?.commands ?? []).filter((c) => c.source === "extension").length;
    }
    if (got >= count) {
      ms = performance.now() - start;
      break;
    }
    if (got >= 0) ask();
  }
  const kb = treeRssKb(proc.pid);
  proc.stdin.end();
  await proc.exited;
  return { ms, kb };
}

function treeRssKb(pid: number): number {
  let total = 0;
  try {
    total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) total += treeRssKb(Number(child));
    }
  } catch {
    // Gone meanwhile.
  }
  return total;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
