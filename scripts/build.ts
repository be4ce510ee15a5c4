/**
 * Builds `dist/pig`: one executable with the Bun runtime, pig's code as bytecode.
 *
 * Security: the binary must not pick up the current directory's `.env` or `bunfig.toml`
 * (a repository pig works in is not trusted), so both autoloads are switched off.
 * `package.json` autoloading stays on: extensions loaded at run time resolve their own packages.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outfile = process.argv[2] ?? join(root, "dist", "pig");
mkdirSync(join(outfile, ".."), { recursive: true });

const args = [
  "build",
  join(root, "src", "cli", "main.ts"),
  "--compile",
  // Separate chunks for the parts loaded on demand: `pig --version` does not evaluate the agent.
  "--splitting",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--compile-autoload-package-json",
  "--outfile",
  outfile,
];
const proc = Bun.spawnSync([process.execPath, ...args], { stdout: "inherit", stderr: "inherit", cwd: root });
if (proc.exitCode !== 0) {
  console.error(`build failed (exit ${proc.exitCode})`);
  process.exit(proc.exitCode ?? 1);
}
console.log(`built ${outfile}`);
