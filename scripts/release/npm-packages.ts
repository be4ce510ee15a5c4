/**
 * The npm packages of a release, from the binaries release.ts built: one package per target,
 * `pig-coding-agent-<target>`, holding that binary and picked by npm through its `os`, `cpu`
 * and `libc` fields, and the main package `pig-coding-agent` with the `pig` launcher and an
 * install script, listing every binary package built as an exact optional dependency. Each is
 * packed with `npm pack`; SHA256SUMS lists every tarball and binary. docs/release.md says how to
 * publish them.
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { buildSdk } from "../build-sdk.ts";
import { MAIN_PACKAGE, NPM_TARGETS, binaryPathInPackage, platformPackageName, type NpmTarget } from "../../src/util/platform-package.ts";

const HOME = "https://github.com/pig-coding-agent/pig";
const COMMON_FIELDS = {
  license: "MIT",
  homepage: HOME,
  repository: { type: "git", url: `git+${HOME}.git` },
  bugs: { url: `${HOME}/issues` },
};

export interface NpmBinary {
  /** The release target id: `linux-x64`. */
  targetId: string;
  path: string;
}

export interface NpmPackagesOptions {
  binaries: readonly NpmBinary[];
  version: string;
  /** Where to write: `<release out>/npm`. Replaced whole, so no package of an earlier run stays. */
  outDir: string;
  /** Build the TypeScript SDK (scripts/build-sdk.ts) into the main package and export it. */
  withSdk?: boolean;
  log?: (line: string) => void;
}

export interface NpmPackage {
  name: string;
  dir: string;
  tarball: string;
}

export interface NpmRelease {
  /** The binary packages first, then the main one: the order to publish them in. */
  packages: NpmPackage[];
  /** Targets built but with no npm package (baseline and other extra builds). */
  skipped: string[];
}

/** The `package.json` of a target's binary package. */
export function platformManifest(target: NpmTarget, version: string): Record<string, unknown> {
  return {
    name: platformPackageName(target.id),
    version,
    description: `The pig coding agent's binary for ${target.id}; installed by ${MAIN_PACKAGE}.`,
    ...COMMON_FIELDS,
    os: [target.os],
    cpu: [target.cpu],
    ...(target.libc ? { libc: [target.libc] } : {}),
    // Yarn PnP: a binary must be a real file on disk to be run.
    preferUnplugged: true,
    files: ["bin", "README.md"],
  };
}

/**
 * What the compiled SDK adds to the main package's `package.json` (scripts/build-sdk.ts's
 * `packageFields`, with paths relative to the package): `exports`, `types`, `type`, `engines`,
 * `dependencies` and its `files`.
 */
export type SdkFields = Record<string, unknown> & { files?: string[] };

/** The main package's `package.json`: the `pig` command, its install script, the binary packages. */
export function mainManifest(targets: readonly NpmTarget[], version: string, sdk: SdkFields | undefined): Record<string, unknown> {
  const { files: sdkFiles = [], ...sdkFields } = sdk ?? {};
  return {
    name: MAIN_PACKAGE,
    version,
    description: `pig, a terminal coding agent wire-compatible with the Pi coding agent: the pig command${sdk ? " and its SDK" : ""}.`,
    ...COMMON_FIELDS,
    engines: { node: ">=20" },
    ...sdkFields,
    bin: { pig: "bin/pig" },
    scripts: { postinstall: "node install.cjs" },
    files: ["bin", "install.cjs", "README.md", ...sdkFiles],
    optionalDependencies: Object.fromEntries(targets.map((t) => [platformPackageName(t.id), version])),
  };
}

function platformReadme(target: NpmTarget): string {
  return `# ${platformPackageName(target.id)}

The [pig](${HOME}) coding agent built for ${target.id}. Do not install it directly: install
\`${MAIN_PACKAGE}\`, which lists this package as an optional dependency so that npm fetches the
binary for your machine only.

\`\`\`sh
npm install -g ${MAIN_PACKAGE}
\`\`\`
`;
}

function mainReadme(targets: readonly NpmTarget[]): string {
  return `# ${MAIN_PACKAGE}

[pig](${HOME}) is a terminal coding agent, wire-compatible with the Pi coding agent, shipped as one
executable. This package installs the \`pig\` command:

\`\`\`sh
npm install -g ${MAIN_PACKAGE}
pig --version
npx ${MAIN_PACKAGE} -p "say hello"
\`\`\`

The binary itself comes in one optional dependency per platform (${targets.map((t) => `\`${platformPackageName(t.id)}\``).join(", ")});
npm installs the one that matches your machine. Installing with \`--omit=optional\` leaves it out,
and \`pig\` then says which package it needs. See ${HOME}/blob/main/docs/install.md.
`;
}

/** One of the package's scripts (`npm-launcher.ts`, `npm-install-script.ts`) as plain CommonJS for Node. */
export async function bundleNpmScript(entry: string, outFile: string, executable: boolean): Promise<void> {
  const built = await Bun.build({ entrypoints: [join(import.meta.dir, entry)], target: "node", format: "cjs" });
  if (!built.success || built.outputs.length !== 1) {
    throw new Error(`bundling scripts/release/${entry} failed:\n${built.logs.map(String).join("\n")}`);
  }
  const code = await built.outputs[0]!.text();
  writeFileSync(outFile, `${executable ? "#!/usr/bin/env node\n" : ""}${code}`, { mode: executable ? 0o755 : 0o644 });
}

async function npmPack(dir: string, destination: string): Promise<string> {
  const proc = Bun.spawn(["npm", "pack", dir, "--pack-destination", destination, "--json", "--loglevel=error"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`npm pack ${dir} failed (exit ${code}): ${stderr.trim() || stdout.trim()}`);
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error(`npm pack ${dir} named no tarball: ${stdout.trim()}`);
  return join(destination, packed.filename);
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

export async function writeNpmPackages(options: NpmPackagesOptions): Promise<NpmRelease> {
  const log = options.log ?? ((line: string) => console.log(line));
  const parent = join(options.outDir, "..");
  mkdirSync(parent, { recursive: true });
  // Written aside and renamed into place: an interrupted run never leaves half a set of packages.
  const work = mkdtempSync(join(parent, ".npm-"));
  try {
    const built: { target: NpmTarget; binary: string }[] = [];
    const skipped: string[] = [];
    for (const binary of options.binaries) {
      const target = NPM_TARGETS.find((t) => t.id === binary.targetId);
      if (target) built.push({ target, binary: binary.path });
      else skipped.push(binary.targetId);
    }
    if (built.length === 0) throw new Error(`no npm package for any target built (${skipped.join(", ")}); npm packages exist for ${NPM_TARGETS.map((t) => t.id).join(", ")}`);
    const packages: NpmPackage[] = [];
    const sums: string[] = [];
    for (const { target, binary } of built) {
      const name = platformPackageName(target.id);
      const dir = join(work, name);
      const inPackage = binaryPathInPackage(target.id);
      mkdirSync(join(dir, "bin"), { recursive: true });
      copyFileSync(binary, join(dir, inPackage));
      chmodSync(join(dir, inPackage), 0o755);
      writeFileSync(join(dir, "package.json"), `${JSON.stringify(platformManifest(target, options.version), null, 2)}\n`);
      writeFileSync(join(dir, "README.md"), platformReadme(target));
      sums.push(`${sha256(join(dir, inPackage))}  ${name}/${inPackage}`);
      packages.push({ name, dir, tarball: await npmPack(dir, work) });
    }
    const targets = built.map((b) => b.target);
    const mainDir = join(work, MAIN_PACKAGE);
    mkdirSync(join(mainDir, "bin"), { recursive: true });
    await bundleNpmScript("npm-launcher.ts", join(mainDir, "bin", "pig"), true);
    // The launcher has no extension: keep it CommonJS whatever `type` the package declares.
    writeFileSync(join(mainDir, "bin", "package.json"), '{ "type": "commonjs" }\n');
    await bundleNpmScript("npm-install-script.ts", join(mainDir, "install.cjs"), false);
    const sdk = options.withSdk ? ((await buildSdk(mainDir)).packageFields as SdkFields) : undefined;
    writeFileSync(join(mainDir, "package.json"), `${JSON.stringify(mainManifest(targets, options.version, sdk), null, 2)}\n`);
    writeFileSync(join(mainDir, "README.md"), mainReadme(targets));
    packages.push({ name: MAIN_PACKAGE, dir: mainDir, tarball: await npmPack(mainDir, work) });
    for (const p of packages) sums.push(`${sha256(p.tarball)}  ${basename(p.tarball)}`);
    writeFileSync(join(work, "SHA256SUMS"), sums.map((line) => `${line}\n`).join(""));
    rmSync(options.outDir, { recursive: true, force: true });
    renameSync(work, options.outDir);
    const moved = (path: string) => join(options.outDir, path.slice(work.length + 1));
    const result = packages.map((p) => ({ name: p.name, dir: moved(p.dir), tarball: moved(p.tarball) }));
    for (const p of result) log(`npm ${p.name.padEnd(34)} ${basename(p.tarball)}`);
    if (skipped.length > 0) log(`npm: no package for ${skipped.join(", ")} (not a release target)`);
    return { packages: result, skipped };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** release.ts's `--npm`: the packages of `binaries` into `<releaseDir>/npm`. */
export async function releaseNpmPackages(binaries: readonly NpmBinary[], version: string, releaseDir: string, log?: (line: string) => void): Promise<NpmRelease> {
  return writeNpmPackages({ binaries, version, outDir: join(releaseDir, "npm"), withSdk: true, log });
}
