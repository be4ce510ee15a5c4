/**
 * Installing, updating and removing packages (package-source.ts) where pig keeps them:
 *
 * | source | user scope | project scope (`-l`) |
 * |---|---|---|
 * | npm | `<agentDir>/npm/node_modules/<name>` | `<cwd>/.pig/npm/node_modules/<name>` |
 * | git | `<agentDir>/git/<host>/<path>` | `<cwd>/.pig/git/<host>/<path>` |
 * | local folder | the folder itself (nothing is copied) | the same |
 * | local `.tgz` (`npm pack`) | `<agentDir>/npm/node_modules/<its name>` | `<cwd>/.pig/npm/node_modules/<its name>` |
 *
 * npm runs through the `npmCommand` setting (default `npm`) in the scope's `npm/` folder; a git
 * checkout with a package.json gets `install --omit=dev` (plain `install` with a custom command).
 * Each step is reported as it starts; the commands' output is captured, never drawn on the
 * terminal, and a failure carries its end. A git package is cloned beside its place and renamed
 * in only when every step worked; an npm install that fails puts the folder's manifest back.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { PackageSource } from "./package-source.ts";

import { isTarball, npmRoot, PackageInstallError, packageDir, tarballName, type InstallPlace } from "./package-place.ts";

export { isInstalled, isTarball, npmRoot, PackageInstallError, packageDir, scopeDir, tarballName, type InstallPlace, type InstallScope } from "./package-place.ts";

export interface InstallOptions {
  /** The `npmCommand` setting: the argv that stands for `npm`. */
  npmCommand?: readonly string[];
  env?: Record<string, string | undefined>;
  /** Told each step as it starts ("cloning https://…"). */
  step?: (text: string) => void;
  /** npm (or the configured command) is told not to run the packages' lifecycle scripts. */
  ignoreScripts?: boolean;
  /** Told, before npm runs, what it may run besides copying files (its lifecycle scripts). */
  notice?: (text: string) => void;
}

const TAIL_LINES = 20;

interface Ran {
  code: number;
  output: string;
}

async function run(argv: readonly string[], cwd: string, options: InstallOptions): Promise<Ran> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([...argv], {
      cwd,
      env: { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: "0" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (error) {
    return { code: 127, output: `${argv[0]}: ${(error as Error).message}` };
  }
  const [out, err, code] = await Promise.all([new Response(proc.stdout as ReadableStream).text(), new Response(proc.stderr as ReadableStream).text(), proc.exited]);
  return { code, output: `${out}${err}` };
}

const tail = (output: string) => output.trimEnd().split("\n").slice(-TAIL_LINES).join("\n");

async function step(source: PackageSource, what: string, argv: readonly string[], cwd: string, options: InstallOptions): Promise<void> {
  options.step?.(what);
  const ran = await run(argv, cwd, options);
  if (ran.code !== 0) throw new PackageInstallError(source.raw, `${what} failed (${argv[0]} exit ${ran.code})`, tail(ran.output));
}

const npmOf = (options: InstallOptions): readonly string[] => (options.npmCommand && options.npmCommand.length > 0 ? options.npmCommand : ["npm"]);

/** The package manager a command runs: its program's file name, after a `--` when there is one (`["mise", "exec", "--", "pnpm"]`). */
export function packageManagerName(command: readonly string[]): string {
  const separator = command.lastIndexOf("--");
  const program = separator >= 0 ? command[separator + 1] : command[0];
  return program ? basename(program).replace(/\.(cmd|exe)$/i, "") : "";
}

/**
 * `install <spec>` / `uninstall <name>` in the scope's npm folder. Peers are never installed
 * (npm's `--legacy-peer-deps` and what bun and pnpm have for it): a package's Pi peers are the
 * host's modules, and a peer no registry has would fail the install.
 */
export function npmArgs(action: "install" | "uninstall", spec: string, root: string, command: readonly string[]): string[] {
  const manager = packageManagerName(command);
  if (manager === "bun") return action === "install" ? ["install", spec, "--cwd", root, "--omit=peer"] : ["uninstall", spec, "--cwd", root];
  if (manager === "pnpm") {
    return action === "install"
      ? ["install", spec, "--prefix", root, "--config.auto-install-peers=false", "--config.strict-peer-dependencies=false", "--config.strict-dep-builds=false"]
      : ["uninstall", spec, "--prefix", root];
  }
  const quiet = manager === "npm" ? ["--no-audit", "--no-fund"] : [];
  return [action, spec, "--prefix", root, "--legacy-peer-deps", ...quiet];
}

/** npm, pnpm, bun and yarn all spell it so. */
const IGNORE_SCRIPTS = "--ignore-scripts";

/** The whole command line of an install or uninstall: the configured command, then its arguments. */
function npmArgv(action: "install" | "uninstall", spec: string, root: string, options: InstallOptions): string[] {
  const npm = npmOf(options);
  return [...npm, ...npmArgs(action, spec, root, npm), ...(options.ignoreScripts ? [IGNORE_SCRIPTS] : [])];
}

/**
 * Says, before an install, that the package manager runs lifecycle scripts (`preinstall`,
 * `install`, `postinstall`, `prepare`) of what it installs — code from the package and its
 * dependencies, run as the user — and how not to.
 */
function noticeScripts(what: string, options: InstallOptions): void {
  if (options.ignoreScripts) return;
  const manager = packageManagerName(npmOf(options)) || "npm";
  options.notice?.(`${manager} runs the install scripts of ${what} and its dependencies (--ignore-scripts skips them)`);
}

/** Installs the package if it is not there yet; returns its folder. */
export async function installPackage(source: PackageSource, place: InstallPlace, options: InstallOptions = {}): Promise<string> {
  if (source.kind === "local" && !existsSync(source.path)) throw new PackageInstallError(source.raw, `${source.path} does not exist`, "");
  const dir = packageDir(source, place);
  if (source.kind === "local" && isTarball(source)) {
    await npmInstall(source, source.path, dir, place, options);
    return dir;
  }
  if (source.kind === "local") return dir;
  if (existsSync(dir) && !(source.kind === "npm" && wrongVersion(source.version, dir))) return dir;
  if (source.kind === "npm") await npmInstall(source, source.version !== undefined ? `${source.name}@${source.version}` : source.name, dir, place, options);
  else await gitInstall(source, dir, options);
  return dir;
}

const EXACT_VERSION = /^v?\d+\.\d+\.\d+(-[\w.-]+)?(\+[\w.-]+)?$/;

/** An exact pinned version other than the one installed in `dir` (a range or a tag is taken as met). */
function wrongVersion(version: string | undefined, dir: string): boolean {
  if (version === undefined || !EXACT_VERSION.test(version)) return false;
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
    return manifest.version !== version.replace(/^v/, "");
  } catch {
    return true;
  }
}

async function gitInstall(source: Extract<PackageSource, { kind: "git" }>, dir: string, options: InstallOptions): Promise<void> {
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  try {
    await step(source, `cloning ${source.url}`, ["git", "clone", "--quiet", source.url, partial], dirname(dir), options);
    if (source.ref) await step(source, `checking out ${source.ref}`, ["git", "-C", partial, "checkout", "--quiet", source.ref], partial, options);
    if (existsSync(join(partial, "package.json"))) await npmInPackage(source, partial, options);
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** `npm install` inside a git checkout: without dev dependencies, unless a custom command is used. */
async function npmInPackage(source: PackageSource, dir: string, options: InstallOptions): Promise<void> {
  const npm = npmOf(options);
  const custom = options.npmCommand !== undefined && options.npmCommand.length > 0;
  const argv = [...npm, "install", ...(custom ? [] : ["--omit=dev", "--no-audit", "--no-fund"]), ...(options.ignoreScripts ? [IGNORE_SCRIPTS] : [])];
  noticeScripts(source.raw, options);
  await step(source, "installing its npm dependencies", argv, dir, options);
}

/** The npm root's package.json and lock, to put back when an install fails. */
function snapshot(root: string): () => void {
  const files = ["package.json", "package-lock.json"].map((name) => join(root, name));
  const saved = files.map((file) => (existsSync(file) ? readFileSync(file) : undefined));
  return () =>
    files.forEach((file, i) => {
      const before = saved[i];
      if (before === undefined) rmSync(file, { force: true });
      else writeFileSync(file, before);
    });
}

/** `npm install <spec>` in the scope's npm folder; `dir` must exist afterwards. */
async function npmInstall(source: PackageSource, spec: string, dir: string, place: InstallPlace, options: InstallOptions): Promise<void> {
  const root = npmRoot(place);
  mkdirSync(root, { recursive: true });
  if (!existsSync(join(root, "package.json"))) writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "pig-packages", private: true }, null, 2)}\n`);
  const restore = snapshot(root);
  noticeScripts(spec, options);
  try {
    await step(source, `installing ${spec} with ${npmOf(options).join(" ")}`, npmArgv("install", spec, root, options), root, options);
  } catch (error) {
    restore();
    throw error;
  }
  if (!existsSync(dir)) {
    restore();
    throw new PackageInstallError(source.raw, `npm finished but ${dir} is not there`, "");
  }
}

/** Brings an unpinned package up to date; a pinned one (or a local path) is left as it is. Returns whether it was updated. */
export async function updatePackage(source: PackageSource, place: InstallPlace, options: InstallOptions = {}): Promise<boolean> {
  if (source.kind === "local" || source.pinned) return false;
  const dir = packageDir(source, place);
  if (!existsSync(dir)) {
    await installPackage(source, place, options);
    return true;
  }
  if (source.kind === "npm") {
    await npmInstall(source, `${source.name}@latest`, dir, place, options);
    return true;
  }
  await step(source, `fetching ${source.url}`, ["git", "-C", dir, "fetch", "--quiet", "origin"], dir, options);
  await step(source, "moving to the newest commit", ["git", "-C", dir, "reset", "--quiet", "--hard", "FETCH_HEAD"], dir, options);
  if (existsSync(join(dir, "package.json"))) await npmInPackage(source, dir, options);
  return true;
}

/** Takes the installed copy away (a local path is never touched). */
export async function removePackage(source: PackageSource, place: InstallPlace, options: InstallOptions = {}): Promise<void> {
  if (source.kind === "local" && isTarball(source)) {
    const dir = packageDir(source, place);
    if (!existsSync(dir) || dir === source.path) return;
    const name = tarballName(source.path);
    await step(source, `uninstalling ${name}`, npmArgv("uninstall", name, npmRoot(place), options), npmRoot(place), options);
    return;
  }
  if (source.kind === "local") return;
  const dir = packageDir(source, place);
  if (source.kind === "git") {
    options.step?.(`removing ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  if (!existsSync(dir)) return;
  await step(source, `uninstalling ${source.name}`, npmArgv("uninstall", source.name, npmRoot(place), options), npmRoot(place), options);
}
