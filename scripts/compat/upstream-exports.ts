// Generates the list of names upstream Pi's packages export (src/extensions/compat/upstream-names.ts)
// from the installed releases, by importing every entry point and subpath of every `pi-*` package
// with the Node the release runs on. One snapshot per release is kept in test/fixtures so the test
// can tell the committed list from what the packages really export.
//
//   bun scripts/compat/upstream-exports.ts           # install (once) the releases, write snapshots and the list
//   bun scripts/compat/upstream-exports.ts --check   # fail if an installed release exports a name the list lacks
//
// The newest release is what `latest` names on the npm registry (see scripts/bench/pi-install.ts).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import * as v from "valibot";
import { ensurePi, type PiRelease } from "../bench/pi-install.ts";
import { mergeSnapshots, missingNames, renderUpstreamModules, renderUpstreamNames, UpstreamSnapshotSchema, type UpstreamSnapshot } from "./upstream-exports-format.ts";

const ROOT = join(import.meta.dir, "..", "..");
export const SNAPSHOT_DIR = join(ROOT, "test", "fixtures", "upstream-exports");
const NAMES_FILE = join(ROOT, "src", "extensions", "compat", "upstream-names.ts");
const MODULES_FILE = join(ROOT, "src", "extensions", "compat", "upstream-modules.ts");
const RELEASES: PiRelease[] = ["0.73.1", "0.87.1", "latest"];

const PackageJsonSchema = v.object({
  name: v.string(),
  version: v.string(),
  main: v.optional(v.string()),
  exports: v.optional(v.unknown()),
});

/** The file Node imports for an `exports` value: the `import` (or `default`) condition. */
function importTarget(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const conditions = value as Record<string, unknown>;
  return importTarget(conditions.import) ?? importTarget(conditions.node) ?? importTarget(conditions.default);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/**
 * Every module specifier (relative to the package: "", "/oauth", "/providers/anthropic"…) a
 * package answers to under Node's `import`, with the file it loads. A `*` pattern is expanded to
 * the files it matches; a subpath with no `import` target (source-only, `./package.json`) is left
 * out, since Node cannot import it either.
 */
export function packageEntries(pkgDir: string): Map<string, string> {
  const pkg = v.parse(PackageJsonSchema, JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")));
  const entries = new Map<string, string>();
  if (pkg.exports === undefined) {
    entries.set("", join(pkgDir, pkg.main ?? "index.js"));
    return entries;
  }
  const map = typeof pkg.exports === "object" && pkg.exports !== null && Object.keys(pkg.exports).every((k) => k.startsWith(".")) ? (pkg.exports as Record<string, unknown>) : { ".": pkg.exports };
  for (const [key, value] of Object.entries(map)) {
    const target = importTarget(value);
    if (!target || !/\.[cm]?js$/.test(target)) continue;
    const sub = key === "." ? "" : key.slice(1);
    if (!key.includes("*")) {
      // A subpath whose file the package does not ship (0.73.1's "./hooks") cannot be imported at all.
      if (existsSync(join(pkgDir, target))) entries.set(sub, join(pkgDir, target));
      continue;
    }
    const [before, after] = target.split("*") as [string, string];
    // The folder the pattern's fixed part names ("./dist/providers/" → dist/providers).
    const folder = before.endsWith("/") ? join(pkgDir, before) : dirname(join(pkgDir, before));
    for (const file of filesUnder(folder)) {
      const rel = relative(pkgDir, file);
      const full = `./${rel}`;
      if (!full.startsWith(before) || !full.endsWith(after) || file.endsWith(".map")) continue;
      entries.set(sub.replace("*", full.slice(before.length, full.length - after.length)), file);
    }
  }
  return entries;
}

// Run by Node: imports each file and prints its names. Each import runs in its own process when the
// file is an executable entry (rpc-entry starts an agent); `process.exit` ends whatever it started.
const MARK = "@@upstream-exports@@";
const PROBE = `
const MARK = ${JSON.stringify(MARK)};
const files = JSON.parse(process.argv[1]);
const out = {};
for (const [key, file] of Object.entries(files)) {
  try { out[key] = Object.keys(await import(file)).filter((n) => n !== "default").sort(); }
  catch (error) { out[key] = { error: String(error && error.message || error).split("\\n")[0] }; }
}
process.stdout.write("\\n" + MARK + JSON.stringify(out) + "\\n", () => process.exit(0));
`;

function probe(node: string, files: Record<string, string>, cwd: string): Record<string, string[] | { error: string }> {
  const run = Bun.spawnSync([node, "--input-type=module", "-e", PROBE, JSON.stringify(files)], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PI_OFFLINE: "1", PI_CODING_AGENT_DIR: join(cwd, ".probe-agent"), NO_COLOR: "1" },
    timeout: 120_000,
  });
  // An entry that runs a program may move stdout to stderr (RPC mode keeps stdout for the protocol).
  const text = run.stdout.toString() + run.stderr.toString();
  const start = text.lastIndexOf(MARK);
  if (start < 0) throw new Error(`probing ${Object.keys(files).join(", ")} printed nothing (exit ${run.exitCode}): ${text.slice(0, 500)}`);
  return JSON.parse(text.slice(start + MARK.length)) as Record<string, string[] | { error: string }>;
}

/** The names a module file's own `export` statements declare (without following `export *`). */
function declaredExports(file: string): string[] {
  const { exports } = new Bun.Transpiler({ loader: "js" }).scan(readFileSync(file, "utf8"));
  return exports.filter((n) => n !== "default").sort();
}

/** A file that runs a program when imported: a `#!` line. */
function isExecutable(file: string): boolean {
  return readFileSync(file, "utf8").startsWith("#!");
}

/** The names every `pi-*` package of one installed release exports, by module ("pi-ai/oauth"). */
export function snapshotRelease(release: PiRelease): UpstreamSnapshot {
  const pi = ensurePi(release);
  const scopeDir = dirname(pi.pkgDir);
  const modules: Record<string, string[]> = {};
  const failures: string[] = [];
  for (const pkgName of readdirSync(scopeDir).filter((n) => n.startsWith("pi-")).sort()) {
    const entries = packageEntries(join(scopeDir, pkgName));
    const library: Record<string, string> = {};
    const alone: Record<string, string>[] = [];
    for (const [sub, file] of entries) (isExecutable(file) ? alone.push({ [pkgName + sub]: file }) : (library[pkgName + sub] = file));
    for (const batch of [library, ...alone]) {
      if (Object.keys(batch).length === 0) continue;
      for (const [key, names] of Object.entries(probe(pi.node, batch, pi.dir))) {
        if (Array.isArray(names)) modules[key] = names;
        else {
          // Not importable under Node (a Workers-only module): its own declared exports still name it.
          modules[key] = declaredExports(batch[key]!);
          failures.push(`${key}: ${names.error}`);
        }
      }
    }
  }
  for (const failure of failures) console.error(`[upstream-exports] ${pi.version}: not importable under Node, names read from its source: ${failure}`);
  return { version: pi.version, package: pi.packageName, modules: Object.fromEntries(Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) };
}

export function readSnapshots(): UpstreamSnapshot[] {
  return readdirSync(SNAPSHOT_DIR)
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => v.parse(UpstreamSnapshotSchema, JSON.parse(readFileSync(join(SNAPSHOT_DIR, n), "utf8"))));
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const installed = RELEASES.map(snapshotRelease);
  if (check) {
    const { UPSTREAM_EXPORTS } = await import("../../src/extensions/compat/upstream-names.ts");
    const missing = installed.flatMap((s) => missingNames(UPSTREAM_EXPORTS, s).map((m) => `${s.version} ${m}`));
    if (missing.length > 0) {
      console.error(`pig's module stand-ins lack ${missing.length} upstream name(s):\n  ${missing.join("\n  ")}\nRefresh with: bun scripts/compat/upstream-exports.ts`);
      process.exit(1);
    }
    console.log(`every name of Pi ${installed.map((s) => s.version).join(", ")} is served`);
    return;
  }
  for (const snapshot of installed) writeFileSync(join(SNAPSHOT_DIR, `pi-${snapshot.version}.json`), JSON.stringify(snapshot, null, 1) + "\n");
  const merged = mergeSnapshots(readSnapshots());
  writeFileSync(NAMES_FILE, renderUpstreamNames(merged));
  writeFileSync(MODULES_FILE, renderUpstreamModules(merged));
  console.log(`wrote ${relative(ROOT, NAMES_FILE)} and ${relative(ROOT, MODULES_FILE)} from ${readSnapshots().map((s) => s.version).join(", ")}`);
}

if (import.meta.main) await main();
