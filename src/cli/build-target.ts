/**
 * Building pig (or a Piglet Binary) for another platform: which targets there are, where the Bun
 * runtime for each comes from, and a check that a built file really is an executable for the
 * platform it was built for.
 *
 * Bun's runtimes for other platforms are npm packages (`@oven/bun-<os>-<arch>[-musl][-baseline]`).
 * They are fetched with `npm pack` into a cache directory of their own, never into a project's
 * dependencies, and then passed to `bun build --compile-executable-path`, so the build itself
 * needs no network and uses exactly the runtime version the build runs on.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pigCacheDir } from "../util/cache-dir.ts";

export type TargetOs = "linux" | "darwin" | "windows";
export type TargetArch = "x64" | "arm64";
export type ExecutableFormat = "elf" | "macho" | "pe";

export interface BuildTarget {
  /** pig's name for it, as `--target` takes it and release files are named: `linux-x64-musl`. */
  id: string;
  os: TargetOs;
  arch: TargetArch;
  musl: boolean;
  /** For x64 CPUs without AVX2. */
  baseline: boolean;
  /** The value for `bun build --target`. */
  bunTarget: string;
  /** The npm package holding this runtime. */
  npmPackage: string;
  /** The runtime's path inside that package. */
  runtimePath: string;
  /** `.exe` on Windows, "" elsewhere. */
  suffix: string;
  format: ExecutableFormat;
}

/**
 * What a release is made of: one binary for each platform Bun runs on, Alpine's musl Linux
 * included (the npm packages of platform-package.ts name the same seven).
 */
export const RELEASE_TARGET_IDS = ["linux-x64", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64", "windows-x64"] as const;

const TARGET_SYNTAX = "<os>-<arch>[-musl][-baseline] with os linux, darwin or windows and arch x64 or arm64";

/**
 * The target a name means. Takes pig's names (`linux-arm64`), Bun's (`bun-linux-arm64`) and the
 * npm packages' spelling of arm64 (`aarch64`). `flag` names where the text came from, for errors.
 */
export function parseTarget(text: string, flag = "--target"): BuildTarget {
  const parts = text.trim().toLowerCase().replace(/^bun-/, "").split("-");
  const [osText, archText, ...rest] = parts;
  const fail = (why: string): never => {
    throw new Error(`${flag} ${JSON.stringify(text)}: ${why} (expected ${TARGET_SYNTAX}, e.g. ${RELEASE_TARGET_IDS.join(", ")})`);
  };
  const os = osText === "macos" ? "darwin" : osText === "win32" ? "windows" : osText;
  if (os !== "linux" && os !== "darwin" && os !== "windows") return fail(`unknown operating system "${osText ?? ""}"`);
  const arch = archText === "aarch64" ? "arm64" : archText === "x86_64" ? "x64" : archText;
  if (arch !== "x64" && arch !== "arm64") return fail(`unknown architecture "${archText ?? ""}"`);
  let musl = false;
  let baseline = false;
  for (const extra of rest) {
    if (extra === "musl" && !musl && !baseline) musl = true;
    else if (extra === "baseline" && !baseline) baseline = true;
    else return fail(`unexpected "${extra}"`);
  }
  if (musl && os !== "linux") return fail("musl builds exist for linux only");
  if (baseline && arch !== "x64") return fail("baseline builds exist for x64 only");
  const id = [os, arch, ...(musl ? ["musl"] : []), ...(baseline ? ["baseline"] : [])].join("-");
  const npmArch = arch === "arm64" ? "aarch64" : "x64";
  const npmName = [os, npmArch, ...(musl ? ["musl"] : []), ...(baseline ? ["baseline"] : [])].join("-");
  const suffix = os === "windows" ? ".exe" : "";
  return {
    id,
    os,
    arch,
    musl,
    baseline,
    bunTarget: `bun-${id}`,
    npmPackage: `@oven/bun-${npmName}`,
    runtimePath: join("package", "bin", `bun${suffix}`),
    suffix,
    format: os === "linux" ? "elf" : os === "darwin" ? "macho" : "pe",
  };
}

/** Whether this process runs on glibc (a Linux without it is musl, e.g. Alpine). */
function onGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime !== undefined;
}

/**
 * The target this process runs as, for "is this a cross build?": the one target whose runtime
 * is the running one and need not be fetched.
 */
export function hostTargetId(platform: string = process.platform, arch: string = process.arch, glibc: () => boolean = onGlibc): string | undefined {
  const os = platform === "win32" ? "windows" : platform;
  if (os !== "linux" && os !== "darwin" && os !== "windows") return undefined;
  if (arch !== "x64" && arch !== "arm64") return undefined;
  return os === "linux" && !glibc() ? `${os}-${arch}-musl` : `${os}-${arch}`;
}

/** Where fetched runtimes are kept: `PIG_RUNTIME_CACHE`, else the user's cache directory. */
export function defaultRuntimeCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PIG_RUNTIME_CACHE) return env.PIG_RUNTIME_CACHE;
  return join(pigCacheDir(env), "bun-runtimes");
}

export interface FetchRuntimeOptions {
  /** The Bun version the runtime must be: the one doing the build (`Bun.version`). */
  bunVersion: string;
  cacheDir: string;
  /** The npm to run; `npm` on PATH by default. */
  npm?: string;
}

/**
 * The path of `target`'s Bun runtime, fetched into the cache first if it is not there. One
 * directory per package and version, filled by rename, so a fetch that fails halfway leaves
 * nothing that looks complete.
 */
export async function fetchRuntime(target: BuildTarget, options: FetchRuntimeOptions): Promise<string> {
  const spec = `${target.npmPackage}@${options.bunVersion}`;
  const dir = join(options.cacheDir, `${target.npmPackage.replace("/", "+")}@${options.bunVersion}`);
  const runtime = join(dir, target.runtimePath);
  if (existsSync(runtime)) return runtime;
  mkdirSync(options.cacheDir, { recursive: true });
  const work = mkdtempSync(join(options.cacheDir, ".fetch-"));
  try {
    const npm = options.npm ?? (process.platform === "win32" ? "npm.cmd" : "npm");
    await run([npm, "pack", spec, "--pack-destination", work, "--loglevel=error"], work, `npm pack ${spec}`);
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${spec} produced no tarball in ${work}`);
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    await run(["tar", "xzf", join(work, tarball), "-C", unpacked], work, `unpacking ${tarball}`);
    if (!existsSync(join(unpacked, target.runtimePath))) {
      throw new Error(`${spec} has no ${target.runtimePath}: not a Bun runtime package?`);
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return runtime;
}

async function run(argv: string[], cwd: string, what: string): Promise<void> {
  let child;
  try {
    child = Bun.spawn(argv, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    throw new Error(`${what}: cannot run ${argv[0]}: ${(error as Error).message}`);
  }
  const [stderr, code, stdout] = await Promise.all([new Response(child.stderr).text(), child.exited, new Response(child.stdout).text()]);
  if (code !== 0) {
    const said = `${stderr}\n${stdout}`.trim().split("\n").filter((line) => line.trim() !== "").slice(0, 3).join("\n");
    throw new Error(`${what} failed (exit ${code})${said ? `: ${said}` : ""}`);
  }
}

/**
 * The runtime a `--compile` build for `target` starts from: none to fetch for the host target
 * (Bun uses itself), otherwise `target`'s, fetched into the cache if need be.
 */
export async function runtimeFor(target: BuildTarget, options: FetchRuntimeOptions): Promise<string | undefined> {
  return target.id === hostTargetId() ? undefined : fetchRuntime(target, options);
}

/** The `bun build --compile` flags that aim a build at `target`, from `runtimeFor`'s answer. */
export function targetBuildFlags(target: BuildTarget, runtime: string | undefined): string[] {
  return [`--target=${target.bunTarget}`, ...(runtime ? ["--compile-executable-path", runtime] : [])];
}

export interface ExecutableInfo {
  format: ExecutableFormat;
  arch: TargetArch | "other";
  /** The raw machine field, for messages about an unexpected one. */
  machine: number;
}

const ELF_MACHINES: Readonly<Record<number, TargetArch>> = { 0x3e: "x64", 0xb7: "arm64" };
const MACHO_CPUS: Readonly<Record<number, TargetArch>> = { 0x01000007: "x64", 0x0100000c: "arm64" };
const PE_MACHINES: Readonly<Record<number, TargetArch>> = { 0x8664: "x64", 0xaa64: "arm64" };

/**
 * The executable format and CPU of a file's first bytes (4 KiB is plenty), or why they are not
 * a 64-bit executable: ELF64 (`e_machine`), thin Mach-O 64 (`cputype`), or PE32+ (the COFF
 * machine after the `PE\0\0` signature `e_lfanew` points to).
 */
export function inspectExecutable(head: Uint8Array): ExecutableInfo | { error: string } {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const has = (bytes: number) => head.byteLength >= bytes;
  if (has(20) && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    if (head[4] !== 2) return { error: "ELF, but not 64-bit" };
    const little = head[5] === 1;
    const machine = view.getUint16(18, little);
    return { format: "elf", arch: ELF_MACHINES[machine] ?? "other", machine };
  }
  if (has(8) && view.getUint32(0, true) === 0xfeedfacf) {
    const machine = view.getUint32(4, true);
    return { format: "macho", arch: MACHO_CPUS[machine] ?? "other", machine };
  }
  if (has(64) && head[0] === 0x4d && head[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    if (!has(pe + 26)) return { error: "MZ header whose PE header is past the bytes given" };
    if (view.getUint32(pe, true) !== 0x00004550) return { error: "MZ header without a PE signature" };
    const machine = view.getUint16(pe + 4, true);
    if (view.getUint16(pe + 24, true) !== 0x20b) return { error: "PE, but not PE32+ (64-bit)" };
    return { format: "pe", arch: PE_MACHINES[machine] ?? "other", machine };
  }
  return { error: "not an ELF, Mach-O 64 or PE executable" };
}

/** null when `head` is an executable for `target`; otherwise what it is instead. */
export function checkExecutable(head: Uint8Array, target: BuildTarget): string | null {
  const info = inspectExecutable(head);
  if ("error" in info) return info.error;
  if (info.format !== target.format || info.arch !== target.arch) {
    return `expected ${target.format} ${target.arch}, found ${info.format} ${info.arch === "other" ? `machine 0x${info.machine.toString(16)}` : info.arch}`;
  }
  return null;
}

/** A file's first bytes, enough for `checkExecutable`. */
export function readHead(path: string, bytes = 4096): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}
