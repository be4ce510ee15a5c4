/**
 * The `bun build` flags that make `dist/pig` (scripts/build.ts), also used by the benchmarks to
 * build a hello-world the same way, as the start-up floor.
 *
 * Security: the binary must not pick up the current directory's `.env` or `bunfig.toml`
 * (a repository pig works in is not trusted), so both autoloads are switched off.
 * `package.json` autoloading stays on: extensions loaded at run time resolve their own packages.
 */
export const COMPILE_FLAGS: readonly string[] = [
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--compile-autoload-package-json",
];

/**
 * pig's own extras:
 * - separate chunks for the parts loaded on demand (`pig --version` does not evaluate the agent);
 * - JavaScriptCore's tier-up thresholds ×8 from the start, for the short print-mode runs
 *   (src/util/jit-policy.ts; the other modes put the normal policy back). Measured on a `-p`
 *   run against a local server: peak RSS 45.4 → 41.5 MB and a little faster start-up; opening a
 *   50 MB session under this policy takes ~5 % longer, which is why the sessions commands do not
 *   keep it.
 */
export const PIG_FLAGS: readonly string[] = ["--splitting", "--compile-jit-policy=8"];
