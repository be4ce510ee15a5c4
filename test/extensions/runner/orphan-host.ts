/** A stand-in pig for the orphan test: starts a runner, prints its pid, then waits to be killed. */
import { fixture, RunnerHarness } from "./harness.ts";

const h = new RunnerHarness({ load: [fixture("ts", "neighbour.ts")] });
await h.start();
await h.ready();
process.stdout.write(`${h.proc!.pid}\n`);
await new Promise(() => {});
