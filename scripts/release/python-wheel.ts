/**
 * The Python extension SDK (sdk/python, `pig-ext`) as a wheel and an sdist, built by the
 * project's own standard-library backend at the release's version, into `<out>/python/` with
 * a SHA256SUMS file. `pip install --no-index --find-links <out>/python pig-ext` installs it
 * without a package index; the same files are what an upload to an index would take.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";

export interface PythonWheelOptions {
  /** The SDK's directory (sdk/python). */
  sdkDir: string;
  /** The release version as pig writes it (`1.2.0`, `1.2.0-rc.1`). */
  version: string;
  /** Where the files go (`<out>/python`); earlier builds of the same version are replaced, and SHA256SUMS lists this build's files. */
  outDir: string;
  /** The Python to build with; `python3` on PATH by default. */
  python?: string;
}

export interface PythonPackage {
  file: string;
  path: string;
  sha256: string;
}

const PRERELEASES: Record<string, string> = { alpha: "a", a: "a", beta: "b", b: "b", rc: "rc" };

/**
 * A release version in PEP 440's normal form, which Python packages must carry: `1.2.0-rc.1`
 * is `1.2.0rc1`, `-alpha.N` `aN`, `-beta.N` `bN`. Other pre-release tags have no PEP 440 form.
 */
export function pythonVersion(version: string): string {
  const match = /^(\d+\.\d+\.\d+)(?:-([0-9A-Za-z.-]+))?$/.exec(version);
  if (!match) throw new Error(`--version ${JSON.stringify(version)}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)`);
  const [, core, pre] = match;
  if (pre === undefined) return core!;
  const tag = /^([a-z]+)\.?(\d+)$/i.exec(pre);
  const short = tag ? PRERELEASES[tag[1]!.toLowerCase()] : undefined;
  if (!tag || !short) {
    throw new Error(`--version ${version}: the Python wheel needs a pre-release Python can order: -alpha.N, -beta.N or -rc.N (PEP 440), not -${pre}`);
  }
  return `${core}${short}${Number(tag[2])}`;
}

/** What the build step prints: the two file names the backend returned. */
const BuiltSchema = v.object({ wheel: v.pipe(v.string(), v.endsWith(".whl")), sdist: v.pipe(v.string(), v.endsWith(".tar.gz")) });

// Runs the backend's PEP 517 hooks directly, as a build frontend would, with the version as a
// config setting: nothing to install, so no index and no network.
const BUILD_SCRIPT = `
import json, sys
sys.path.insert(0, sys.argv[1] + "/_build")
import pig_ext_build
settings = {"version": sys.argv[3]}
print(json.dumps({"wheel": pig_ext_build.build_wheel(sys.argv[2], settings), "sdist": pig_ext_build.build_sdist(sys.argv[2], settings)}))
`;

export function buildPythonPackages(options: PythonWheelOptions): PythonPackage[] {
  const python = options.python ?? "python3";
  const version = pythonVersion(options.version);
  mkdirSync(options.outDir, { recursive: true });
  for (const old of readdirSync(options.outDir)) if (old.startsWith(`pig_ext-${version}`)) rmSync(join(options.outDir, old));
  let proc;
  try {
    proc = Bun.spawnSync([python, "-I", "-c", BUILD_SCRIPT, options.sdkDir, options.outDir, version], { stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    throw new Error(`python wheel: cannot run ${python} (Python 3.11 or later builds the wheel): ${(error as Error).message}`);
  }
  if (proc.exitCode !== 0) throw new Error(`python wheel: building with ${python} failed (exit ${proc.exitCode}):\n${proc.stderr.toString().trim()}`);
  const parsed = v.safeParse(BuiltSchema, (() => {
    try {
      return JSON.parse(proc.stdout.toString().trim().split("\n").at(-1) ?? "");
    } catch {
      return undefined;
    }
  })());
  if (!parsed.success) throw new Error(`python wheel: the build printed no file names: ${proc.stdout.toString().trim() || "(nothing)"}`);
  const packages = [parsed.output.wheel, parsed.output.sdist].map((file) => {
    const path = join(options.outDir, file);
    return { file, path, sha256: createHash("sha256").update(readFileSync(path)).digest("hex") };
  });
  writeFileSync(join(options.outDir, "SHA256SUMS"), packages.map((p) => `${p.sha256}  ${p.file}\n`).join(""));
  return packages;
}
