// Two (or more) pig binaries against each other on `-p hello`, interleaved in the same rounds so
// both see the same machine load: wall time and spawn → first model request, median of the
// rounds. For "is this change any slower to start": build the old commit and the new one, then
//   node_modules/.bin/bun scripts/bench/pig-versions.ts --runs 30 /tmp/pig-old dist/pig
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { interleave, median, pigEnv, runOnce } from "./measure.ts";

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: "string", default: "30" }, warmup: { type: "string", default: "3" } },
  allowPositionals: true,
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
if (positionals.length < 2 || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) {
  console.error("usage: bun scripts/bench/pig-versions.ts [--runs N] [--warmup N] PIG_A PIG_B [PIG_C…]");
  process.exit(2);
}
const binaries = positionals.map((path) => resolve(path));

const work = mkdtempSync(join(tmpdir(), "pig-bench-versions-"));
let arrivals: number[] = [];
const llm = await startFakeLlm({ script: { responses: [{ text: "ok" }] }, onRequest: () => void arrivals.push(performance.now()) });
try {
  const cwd = join(work, "cwd");
  mkdirSync(cwd);
  const sides = binaries.map((bin, i) => {
    const agentDir = join(work, `agent-${i}`);
    mkdirSync(agentDir);
    const model = { id: "fake-model", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 16384 };
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { fake: { baseUrl: `${llm.url}/v1`, api: "openai-completions", apiKey: "fake-key", models: [model] } } }));
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true }));
    return { key: String(i), bin, agentDir };
  });
  const samples = await interleave("-p hello", sides.map((s) => s.key), runs, warmup, async (key) => {
    const side = sides[Number(key)]!;
    llm.setScript({ responses: [{ text: "ok" }] });
    arrivals = [];
    const start = performance.now();
    const sample = await runOnce([side.bin, "-p", "hello"], { env: pigEnv(side.agentDir), cwd });
    if (arrivals.length !== 1) throw new Error(`${side.bin}: expected one model request, the server got ${arrivals.length}`);
    rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
    return { wall: sample.ms, first: arrivals[0]! - start };
  });
  console.log(`| binary | -p hello wall (median of ${runs}) | spawn → first request |`);
  console.log("|---|---|---|");
  for (const side of sides) {
    const s = samples.get(side.key)!;
    console.log(`| ${side.bin} | ${median(s.map((x) => x.wall)).toFixed(1)} ms | ${median(s.map((x) => x.first)).toFixed(1)} ms |`);
  }
} finally {
  await llm.close();
  rmSync(work, { recursive: true, force: true });
}
