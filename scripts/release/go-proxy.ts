/**
 * The Go module (sdk/go) as a module proxy directory: the layout `GOPROXY=file://…` serves
 * (https://go.dev/ref/mod#goproxy-protocol), so `go get` fetches a release's module from the
 * release files without the network, and what a public proxy would serve can be checked before
 * the `sdk/go/vX.Y.Z` tag is pushed.
 *
 *   <out>/goproxy/<escaped module path>/@v/list        every version in the directory
 *   <out>/goproxy/<escaped module path>/@v/vX.Y.Z.info {"Version","Time"}
 *   <out>/goproxy/<escaped module path>/@v/vX.Y.Z.mod  the module's go.mod
 *   <out>/goproxy/<escaped module path>/@v/vX.Y.Z.zip  <module>@vX.Y.Z/<file> for each file
 *
 * The zip holds what Go would put in it from a tagged checkout: the module's tracked files
 * (never build outputs lying in the tree), without nested modules.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { zipArchive } from "./zip.ts";

export interface GoProxyOptions {
  /** The repository checkout (a git work tree). */
  repoRoot: string;
  /** The module's directory inside it (`sdk/go`). */
  moduleDir: string;
  /** The release version without `v` (`1.2.0`, `1.2.0-rc.1`). */
  version: string;
  /** The proxy directory to write into (`<out>/goproxy`); other versions in it are kept. */
  proxyDir: string;
}

export interface GoProxyResult {
  module: string;
  version: string;
  zipPath: string;
  files: string[];
  /** The two lines `go get` writes to a consumer's go.sum. */
  goSum: string[];
  /** Files of the module changed since the last commit: the tag will not hold what was packed. */
  uncommitted: string[];
}

/** Go's case encoding for paths in a proxy (`!` before each upper-case letter, made lower). */
export function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The module path from go.mod's `module` line; Go fetches only paths whose first element has a dot. */
export function moduleFromGoMod(goMod: string, file: string): string {
  const match = /^module\s+("?)([^\s"]+)\1\s*$/m.exec(goMod);
  if (!match) throw new Error(`${file}: no module line`);
  const path = match[2]!;
  if (!path.split("/")[0]!.includes(".")) throw new Error(`${file}: module path ${path} cannot be fetched with go get (its first element has no dot)`);
  return path;
}

/** Go's `h1:` hash (golang.org/x/mod/sumdb/dirhash Hash1) of files named `<module>@<version>/<path>`. */
export function goHash1(files: ReadonlyArray<{ name: string; data: Uint8Array }>): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${createHash("sha256").update(f.data).digest("hex")}  ${f.name}\n`)
    .join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

/** Paths Go accepts in a module zip on every platform; anything else is named, not packed. */
const SAFE_FILE_PATH = /^[A-Za-z0-9_+.-]+(\/[A-Za-z0-9_+.-]+)*$/;

/** The module's files, relative to its directory: tracked in git, regular, outside nested modules. */
export function moduleFiles(tracked: readonly string[], isRegularFile: (path: string) => boolean): string[] {
  const nested = tracked.filter((p) => p.endsWith("/go.mod")).map((p) => dirname(p) + "/");
  return tracked
    .filter((p) => !nested.some((dir) => p.startsWith(dir)))
    .filter((p) => !p.split("/").some((part) => part === "vendor" || part.startsWith(".")))
    .filter(isRegularFile)
    .sort();
}

function trackedFiles(repoRoot: string, moduleDir: string): string[] {
  const proc = Bun.spawnSync(["git", "ls-files", "-z", "--", moduleDir], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`go proxy: listing ${moduleDir}'s files with git failed (is ${repoRoot} a git checkout?): ${proc.stderr.toString().trim()}`);
  const prefix = moduleDir.replace(/\/$/, "") + "/";
  return proc.stdout
    .toString()
    .split("\0")
    .filter((p) => p !== "")
    .map((p) => p.slice(prefix.length));
}

function uncommittedFiles(repoRoot: string, moduleDir: string): string[] {
  const proc = Bun.spawnSync(["git", "status", "--porcelain", "--", moduleDir], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
  return proc.stdout
    .toString()
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.slice(3));
}

/** The time of the checkout's last commit, so the same sources give the same `.info`. */
function commitTime(repoRoot: string): string {
  const proc = Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
  const seconds = Number(proc.stdout.toString().trim());
  return new Date(proc.exitCode === 0 && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function writeGoProxy(options: GoProxyOptions): GoProxyResult {
  const moduleRoot = join(options.repoRoot, options.moduleDir);
  const goModFile = join(moduleRoot, "go.mod");
  if (!existsSync(goModFile)) throw new Error(`go proxy: ${goModFile} does not exist`);
  const goMod = readFileSync(goModFile);
  const module = moduleFromGoMod(goMod.toString("utf8"), relative(options.repoRoot, goModFile));
  const version = `v${options.version}`;
  const files = moduleFiles(trackedFiles(options.repoRoot, options.moduleDir), (p) => lstatSync(join(moduleRoot, p), { throwIfNoEntry: false })?.isFile() ?? false);
  if (!files.includes("go.mod")) throw new Error(`go proxy: ${relative(options.repoRoot, goModFile)} is not tracked in git`);
  const unsafe = files.find((p) => !SAFE_FILE_PATH.test(p));
  if (unsafe) throw new Error(`go proxy: ${options.moduleDir}/${unsafe}: a file name Go refuses in a module zip on some platform; rename it`);
  const prefix = `${module}@${version}/`;
  const entries = files.map((p) => ({ name: prefix + p, data: readFileSync(join(moduleRoot, p)) }));

  const versionsDir = join(options.proxyDir, escapeModulePath(module), "@v");
  mkdirSync(versionsDir, { recursive: true, mode: 0o755 });
  const base = join(versionsDir, escapeModulePath(version));
  const zipPath = `${base}.zip`;
  writeFileSync(`${base}.mod`, goMod);
  writeFileSync(zipPath, zipArchive(entries));
  writeFileSync(`${base}.info`, `${JSON.stringify({ Version: version, Time: commitTime(options.repoRoot) })}\n`);
  const versions = readdirSync(versionsDir)
    .filter((f) => f.endsWith(".info"))
    .map((f) => f.slice(0, -".info".length).replace(/!([a-z])/g, (_, c: string) => c.toUpperCase()))
    .sort(); // Go orders the list itself
  writeFileSync(join(versionsDir, "list"), versions.map((v) => `${v}\n`).join(""));
  return {
    module,
    version,
    zipPath,
    files,
    uncommitted: uncommittedFiles(options.repoRoot, options.moduleDir),
    goSum: [`${module} ${version} ${goHash1(entries)}`, `${module} ${version}/go.mod ${goHash1([{ name: "go.mod", data: goMod }])}`],
  };
}
