// Two (or more) pig binaries against each other on `-p hello`, interleaved in the same rounds so
// all see the same machine load: medians of wall time, spawn → first model request, CPU and peak
// RSS. For "is this change any slower to start": build the old commit and the new one, then
//   node_modules/.bin/bun scripts/bench/pig-versions.ts --runs 30 /tmp/pig-old dist/pig
// (guard.ts does the building of an older commit for you.)
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { medianOf, RACE_METRICS, racePig } from "./race-pig.ts";

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    runs: { type: "string", default: "30" },
    warmup: { type: "string", default: "3" },
    "no-session": { type: "boolean", default: false },
  },
  allowPositionals: true,
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
if (positionals.length < 2 || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) {
  console.error("usage: bun scripts/bench/pig-versions.ts [--runs N] [--warmup N] [--no-session] PIG_A PIG_B [PIG_C…]");
  process.exit(2);
}
const binaries = positionals.map((path) => resolve(path));
const args = values["no-session"] ? ["--no-session", "-p", "hello"] : ["-p", "hello"];
const race = await racePig(binaries, args, runs, warmup);
console.log(`| binary | ${RACE_METRICS.map((m) => m.label).join(" | ")} |`);
console.log(`|---|${RACE_METRICS.map(() => "---|").join("")}`);
binaries.forEach((bin, i) => {
  const cells = RACE_METRICS.map((m) => `${medianOf(race.samples[i]!, m.pick).toFixed(1)} ${m.unit}`);
  console.log(`| ${bin} | ${cells.join(" | ")} |`);
});
console.log(`\nMedians of ${runs} interleaved rounds after ${warmup} unmeasured; peak RSS from GNU time's %M, CPU from the run's rusage.`);
for (const command of race.commands) console.log(`- \`${command}\``);
