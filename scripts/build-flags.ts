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

/** pig's own extra: separate chunks for the parts loaded on demand (`pig --version` does not evaluate the agent). */
export const PIG_FLAGS: readonly string[] = ["--splitting"];
