/**
 * File permissions that apply even when the tests run as root (as CI does): root normally reads
 * any file, so a test of "this file cannot be read" runs its check in a child process without
 * the two capabilities that let root skip permission checks.
 */
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** `argv` so that file permissions apply to it: unchanged for a normal user. */
export function withPermissions(argv: string[]): string[] {
  if (process.getuid?.() !== 0) return argv;
  return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--", ...argv];
}

/**
 * Runs a TypeScript module body with permissions applying and returns what it printed as JSON
 * (its last line). `src("tools/read.ts")` in the body stands for the path of a source module.
 */
export async function evalWithPermissions(body: (src: (path: string) => string) => string): Promise<unknown> {
  const code = body((path) => JSON.stringify(join(ROOT, "src", path)));
  const proc = Bun.spawn(withPermissions([process.execPath, "-e", code]), { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (exit !== 0) throw new Error(`the check failed to run (exit ${exit}):\n${err}`);
  return JSON.parse(out.trimEnd().split("\n").at(-1)!);
}
