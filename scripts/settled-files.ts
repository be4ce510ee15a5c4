/**
 * Files another process writes as it ends, once they are all there. pig does not wait for its
 * extension runner's process to end (src/extensions/host/ext-process.ts): what the runner writes
 * at its very end (a CPU profile, a bytecode order) may land a moment after pig has exited.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const POLL_MS = 10;
/** Polls in a row that must find the same files at the same sizes. */
const STILL_POLLS = 3;

/**
 * The names in `dir` that `pick` takes, once there are `count` of them, none empty and none
 * grown over the last few polls (~30 ms); after `limitMs`, whatever is there then.
 */
export async function settledFiles(dir: string, count: number, pick: (name: string) => boolean, limitMs = 5_000): Promise<string[]> {
  const until = performance.now() + limitMs;
  let sizes = "";
  let still = 0;
  for (;;) {
    const names = readdirSync(dir).filter(pick).sort();
    const sized = names.map((name) => ({ name, size: sizeOf(join(dir, name)) }));
    const now = sized.map(({ name, size }) => `${name}:${size}`).join(" ");
    const whole = names.length >= count && sized.every(({ size }) => size > 0);
    still = whole && now === sizes ? still + 1 : 0;
    if (still >= STILL_POLLS || performance.now() > until) return names;
    sizes = now;
    await Bun.sleep(POLL_MS);
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
