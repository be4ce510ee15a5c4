/**
 * Release binaries: pig built for every platform Bun runs on, with the same flags as `dist/pig`
 * (build-flags.ts), into `dist/release/` with a SHA256SUMS file. docs/release.md tells the steps.
 *
 *   bun scripts/release.ts                          # the seven release targets
 *   bun scripts/release.ts --targets linux-x64-musl,windows-x64-baseline --out /tmp/rel
 *   bun scripts/release.ts --version 1.2.0 --go-proxy --no-binaries   # only <out>/goproxy/
 *   bun scripts/release.ts --version 1.2.0 --wheel --no-binaries      # only <out>/python/
 *   bun scripts/release.ts --archives               # also the installer's files (release/archives.ts)
 *   bun scripts/release.ts --npm                    # and the npm packages, into <out>/npm
 *
 * The runtimes for other platforms are fetched once with `npm pack` into a cache directory
 * (`--cache`, default ~/.cache/pig/bun-runtimes); after that the build needs no network.
 * Every binary is checked for its executable format and CPU before it is listed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  RELEASE_TARGET_IDS,
  checkExecutable,
  defaultRuntimeCache,
  readHead,
  parseTarget,
  runtimeFor,
  targetBuildFlags,
  type BuildTarget,
} from "../src/cli/build-target.ts";
import { COMPILE_FLAGS, PIG_FLAGS } from "./build-flags.ts";
import { withBytecodeOrder } from "./bytecode-order.ts";
import { writeReleaseArchives } from "./release/archives.ts";
import { writeGoProxy } from "./release/go-proxy.ts";
import { buildPythonPackages, pythonVersion } from "./release/python-wheel.ts";
import { releaseNpmPackages } from "./release/npm-packages.ts";

const root = join(import.meta.dir, "..");

export interface ReleaseOptions {
  targets: readonly BuildTarget[];
  outDir: string;
  cacheDir: string;
  /** Put into the file names: `pig-<version>-<target>`. */
  version: string;
  /** Build the binaries as this version (what `pig --version` says) rather than package.json's. */
  defineVersion?: boolean;
  log?: (line: string) => void;
}

export interface ReleaseBinary {
  target: BuildTarget;
  path: string;
  bytes: number;
  sha256: string;
  ms: number;
}

export async function buildRelease(options: ReleaseOptions): Promise<ReleaseBinary[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  mkdirSync(options.outDir, { recursive: true });
  const out: ReleaseBinary[] = [];
  // Fetch every runtime first, so a missing one fails before any building.
  const runtimes = new Map<string, string | undefined>();
  for (const target of options.targets) {
    runtimes.set(target.id, await runtimeFor(target, { bunVersion: Bun.version, cacheDir: options.cacheDir }));
  }
  const common = [
    join(root, "src", "cli", "main.ts"),
    ...COMPILE_FLAGS,
    ...PIG_FLAGS,
    ...(options.defineVersion ? ["--define", `PIG_RELEASE_VERSION=${JSON.stringify(options.version)}`] : []),
  ];
  // Every target's bytecode in the order a build for this machine records (the order names
  // functions by their code, the same on every platform), as dist/pig has it (bytecode-order.ts).
  await withBytecodeOrder(common, root, (order) => {
    for (const target of options.targets) out.push(buildTarget(target, runtimes.get(target.id), [...common, order], options, log));
  });
  writeFileSync(join(options.outDir, "SHA256SUMS"), out.map((b) => `${b.sha256}  ${basename(b.path)}\n`).join(""));
  return out;
}

function buildTarget(target: BuildTarget, runtime: string | undefined, common: readonly string[], options: ReleaseOptions, log: (line: string) => void): ReleaseBinary {
  const path = join(options.outDir, `pig-${options.version}-${target.id}${target.suffix}`);
  const args = ["build", ...common, ...targetBuildFlags(target, runtime), "--outfile", path];
  const started = performance.now();
  const proc = Bun.spawnSync([process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) {
    throw new Error(`building ${target.id} failed (exit ${proc.exitCode}):\n${proc.stderr.toString()}${proc.stdout.toString()}`);
  }
  const ms = performance.now() - started;
  const wrong = checkExecutable(readHead(path), target);
  if (wrong) throw new Error(`${path}: built for ${target.id} but ${wrong}`);
  const sha256 = createHash("sha256").update(readFileSync(path)).digest("hex");
  const bytes = statSync(path).size;
  log(`${target.id.padEnd(22)} ${(bytes / 1e6).toFixed(1).padStart(6)} MB  ${(ms / 1000).toFixed(1).padStart(5)} s  ${basename(path)}`);
  return { target, path, bytes, sha256, ms };
}

function usage(message: string): never {
  console.error(`release: ${message}\nusage: bun scripts/release.ts [--targets a,b,…] [--out dir] [--cache dir] [--version X.Y.Z] [--npm] [--archives] [--go-proxy] [--wheel] [--no-binaries]`);
  process.exit(2);
}

if (import.meta.main) {
  let values;
  try {
    ({ values } = parseArgs({
      args: Bun.argv.slice(2),
      options: {
        targets: { type: "string" },
        out: { type: "string" },
        cache: { type: "string" },
        version: { type: "string" },
        npm: { type: "boolean" },
        archives: { type: "boolean" },
        "go-proxy": { type: "boolean" },
        wheel: { type: "boolean" },
        "no-binaries": { type: "boolean" },
      },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  let targets: BuildTarget[];
  try {
    const ids = values.targets ? values.targets.split(",").filter((t) => t.trim() !== "") : [...RELEASE_TARGET_IDS];
    targets = ids.map((id) => parseTarget(id, "--targets"));
  } catch (error) {
    usage((error as Error).message);
  }
  const { version: packageVersion } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  if (values.version !== undefined && !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(values.version)) usage(`--version ${JSON.stringify(values.version)}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)`);
  const version = values.version ?? packageVersion;
  // Before any building: a version the wheel cannot carry fails the release at once.
  if (values.wheel) {
    try {
      pythonVersion(version);
    } catch (error) {
      usage((error as Error).message);
    }
  }
  const started = performance.now();
  const outDir = resolve(values.out ?? join(root, "dist", "release"));
  try {
    if ((values.archives || values.npm) && values["no-binaries"]) usage(`${values.npm ? "--npm" : "--archives"} needs the binaries: leave out --no-binaries`);
    if (!values["no-binaries"]) {
      const binaries = await buildRelease({
        targets,
        version,
        defineVersion: values.version !== undefined,
        outDir,
        cacheDir: resolve(values.cache ?? defaultRuntimeCache()),
      });
      if (values.archives) writeReleaseArchives(binaries, outDir, version, (line) => console.log(line));
      if (values.npm) await releaseNpmPackages(binaries.map((b) => ({ targetId: b.target.id, path: b.path })), version, outDir);
    }
    if (values["go-proxy"]) {
      const go = writeGoProxy({ repoRoot: root, moduleDir: "sdk/go", version, proxyDir: join(outDir, "goproxy") });
      console.log(`go module ${go.module}@${go.version}: ${go.files.length} files, ${go.zipPath}\n  go.sum: ${go.goSum.join("\n          ")}`);
      if (go.uncommitted.length > 0) console.error(`release: warning: uncommitted changes in ${go.uncommitted.join(", ")}: the tag sdk/go/${go.version} will not hold the files packed`);
    }
    if (values.wheel) {
      for (const p of buildPythonPackages({ sdkDir: join(root, "sdk", "python"), version, outDir: join(outDir, "python") })) console.log(`python ${p.sha256}  ${p.path}`);
    }
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    process.exit(1);
  }
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s (Bun ${Bun.version})`);
}
