// A floor program: a small TypeScript source compiled as scripts/build.ts compiles pig (its
// compile and code-splitting flags), so the two start the same way and differ only in their work.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS, PIG_FLAGS } from "../build-flags.ts";

/** Compiles `source` to `<dir>/<name>`; the path of the executable. */
export function buildFloor(dir: string, name: string, source: string): string {
  const src = join(dir, `${name}.ts`);
  const out = join(dir, name);
  writeFileSync(src, source);
  const built = Bun.spawnSync([process.execPath, "build", src, ...COMPILE_FLAGS, ...PIG_FLAGS, "--outfile", out], { cwd: dir, stdout: "ignore", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`building ${name} failed: ${built.stderr.toString()}`);
  return out;
}
