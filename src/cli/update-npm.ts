/**
 * `pig update` for a pig installed with `npm install -g pig-coding-agent`: finding that install
 * from the running binary's path, and updating it with npm itself, so npm's registry, proxy and
 * script settings apply and npm's own bookkeeping stays right.
 *
 * No marker file is needed: the path says it. npm puts a global package at
 * `<prefix>/lib/node_modules/pig-coding-agent` (`<prefix>/node_modules/…` on Windows), and the
 * running pig is one of: the package's `bin/pig` (the launcher, or the native binary the install
 * script linked there — a hard link is reached through its own path, which the kernel reports),
 * or the binary package's `bin/pig`, nested in the main package or beside it. The package's
 * `package.json` and npm's `pig` link in `<prefix>/bin` confirm it is a global install; a
 * project's or npx's copy is not one, and is left to its own npm.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import * as v from "valibot";
import { MAIN_PACKAGE, NPM_TARGETS, platformPackageName } from "../util/platform-package.ts";

export interface NpmInstall {
  /** the global node_modules/pig-coding-agent directory */
  packageDir: string;
  /** npm's prefix it was installed under */
  prefix: string;
  version: string;
}

const PackageJson = v.object({ name: v.string(), version: v.string() });

const BINARY_NAMES = new Set(["pig", "pig.exe"]);
const PLATFORM_PACKAGES = new Set<string>(NPM_TARGETS.map((t) => platformPackageName(t.id)));

function readManifest(packageDir: string): v.InferOutput<typeof PackageJson> | undefined {
  try {
    const parsed = v.safeParse(PackageJson, JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** The main package's directory for a binary at `path`, from the path alone. */
function mainPackageDirOf(path: string): string | undefined {
  const binDir = dirname(path);
  if (!BINARY_NAMES.has(basename(path)) || basename(binDir) !== "bin") return undefined;
  const packageDir = dirname(binDir);
  const name = basename(packageDir);
  const modules = dirname(packageDir);
  if (basename(modules) !== "node_modules") return undefined;
  if (name === MAIN_PACKAGE) return packageDir;
  if (!PLATFORM_PACKAGES.has(name)) return undefined;
  // Nested: <main>/node_modules/<platform>; hoisted: <node_modules>/<platform> beside <main>.
  const owner = dirname(modules);
  return basename(owner) === MAIN_PACKAGE ? owner : join(modules, MAIN_PACKAGE);
}

/** npm's global prefix for a package directory, when it is where `npm install -g` puts packages. */
function globalPrefixOf(packageDir: string): string | undefined {
  const modules = dirname(packageDir);
  const parent = dirname(modules);
  const has = (path: string) => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  };
  // POSIX: <prefix>/lib/node_modules with the link <prefix>/bin/pig.
  if (basename(parent) === "lib" && has(join(dirname(parent), "bin", "pig"))) return dirname(parent);
  // Windows: <prefix>/node_modules with the shim <prefix>/pig.cmd.
  if (has(join(parent, "pig.cmd"))) return parent;
  return undefined;
}

/** The npm install the running binary belongs to, from its real path (the launcher, a hard link, or the platform package's binary); undefined when it is not one. */
export function findNpmInstall(execPath: string): NpmInstall | undefined {
  let path = execPath;
  try {
    path = realpathSync(execPath);
  } catch {
    // A path that no longer resolves is judged as given.
  }
  const packageDir = mainPackageDirOf(path);
  if (!packageDir) return undefined;
  const manifest = readManifest(packageDir);
  if (manifest?.name !== MAIN_PACKAGE) return undefined;
  const prefix = globalPrefixOf(packageDir);
  if (!prefix) return undefined;
  return { packageDir, prefix, version: manifest.version };
}

const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The npm command: `npm.cmd` on Windows, where `npm` is a batch file. */
function npmCommand(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

/** What npm printed, split into lines, both streams in order of arrival. */
function runNpm(args: readonly string[], log: (line: string) => void): Promise<{ code: number | null; error?: Error; output: string[] }> {
  return new Promise((resolve) => {
    const output: string[] = [];
    let child;
    try {
      // npm.cmd needs a shell on Windows; the arguments are fixed words and a checked version.
      child = spawn(npmCommand(), args, { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    } catch (error) {
      resolve({ code: null, error: error as Error, output });
      return;
    }
    const emit = (line: string) => {
      if (line.trim() === "") return;
      output.push(line);
      log(line);
    };
    const take = (stream: NodeJS.ReadableStream) => {
      let rest = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        lines.forEach(emit);
      });
      stream.on("end", () => emit(rest));
    };
    take(child.stdout);
    take(child.stderr);
    child.on("error", (error) => resolve({ code: null, error, output }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Updates it in place with npm (`npm install -g --prefix <prefix> pig-coding-agent@<version or "latest">`), with npm's own registry settings; throws an Error naming what failed and npm's output. */
export async function updateNpmInstall(install: NpmInstall, version: string, log: (line: string) => void): Promise<void> {
  if (version !== "latest" && !VERSION.test(version)) {
    throw new Error(`pig update --to ${JSON.stringify(version)}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)`);
  }
  const spec = `${MAIN_PACKAGE}@${version}`;
  const args = ["install", "--global", "--prefix", install.prefix, spec];
  const command = `npm ${args.join(" ")}`;
  log(`updating ${install.packageDir} (${install.version}): ${command}`);
  const ran = await runNpm(args, log);
  const said = ran.output.length > 0 ? `:\n${ran.output.slice(-20).join("\n")}` : " (npm printed nothing)";
  if (ran.error) throw new Error(`${command}: cannot run npm (${ran.error.message}); pig was installed with npm under ${install.prefix}, so updating it needs npm on PATH`);
  if (ran.code !== 0) throw new Error(`${command} failed (${ran.code === null ? "killed by a signal" : `exit ${ran.code}`})${said}`);
  // npm succeeded: the package on disk must now be the version asked for, with its binary.
  const manifest = readManifest(install.packageDir);
  if (!manifest) throw new Error(`${command} succeeded but left no readable ${join(install.packageDir, "package.json")}${said}`);
  if (version !== "latest" && manifest.version !== version) {
    throw new Error(`${command} succeeded but ${install.packageDir} is version ${manifest.version}, not ${version}${said}`);
  }
  if (!existsSync(join(install.packageDir, "bin", "pig"))) throw new Error(`${command} succeeded but left no ${join(install.packageDir, "bin", "pig")}${said}`);
  log(`pig ${manifest.version} installed in ${install.packageDir}`);
}

/**
 * The version npm's registry (the user's, with their npm settings) has for `pig-coding-agent@<spec>`
 * (`latest` or a version): an npm install updates from where it came, not from the GitHub releases.
 */
export async function npmReleasedVersion(spec: string): Promise<string> {
  if (spec !== "latest" && !VERSION.test(spec)) throw new Error(`pig update --to ${JSON.stringify(spec)}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)`);
  const args = ["view", `${MAIN_PACKAGE}@${spec}`, "version", "--json"];
  const command = `npm ${args.join(" ")}`;
  const ran = await runNpm(args, () => undefined);
  if (ran.error) throw new Error(`${command}: cannot run npm (${ran.error.message}); pig was installed with npm, so updating it needs npm on PATH`);
  const said = ran.output.slice(-20).join("\n");
  if (ran.code !== 0) throw new Error(`${command} failed (${ran.code === null ? "killed by a signal" : `exit ${ran.code}`})${said ? `:\n${said}` : ""}`);
  let answer: unknown;
  try {
    answer = JSON.parse(ran.output.join("\n"));
  } catch {
    answer = undefined;
  }
  // One version is a string; a range would be a list (a version asked for exactly is never one).
  const version = Array.isArray(answer) ? answer.at(-1) : answer;
  if (typeof version !== "string" || !VERSION.test(version)) {
    throw new Error(spec === "latest" ? `${command}: the registry has no released version of ${MAIN_PACKAGE}${said ? ` (npm said: ${said})` : ""}` : `${command}: the registry has no ${MAIN_PACKAGE}@${spec}`);
  }
  return version;
}
