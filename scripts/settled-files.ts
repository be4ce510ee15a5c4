/**
 * Files another process writes as it ends, once they are all there. pig does not wait for its
 * extension runner's process to end (src/extensions/host/ext-process.ts): what the runner writes
 * at its very end (a CPU profile, a bytecode order) may land a moment after pig has exited.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const POLL_MS = 5;

/**
 * The names in `dir` that `pick` takes, once there are `count` of them, none empty and none
 * grown since the poll before; after `limitMs`, whatever is there then.
 */
export async function settledFiles(dir: string, count: number, pick: (name: string) => boolean, limitMs = 5_000): Promise<string[]> {
  const until = performance.now() + limitMs;
  let sizes = "";
  for (;;) {
    const names = readdirSync(dir).filter(pick).sort();
    const now = names.map((name) => `${name}:${sizeOf(join(dir, name))}`).join(" ");
    const whole = names.length >= count && names.every((name) => sizeOf(join(dir, name)) > 0);
    if ((whole && now === sizes) || performance.now() > until) return names;
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
