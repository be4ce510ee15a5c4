/**
 * Which release target the machine running the npm launcher or install script is, and where that
 * target's binary package is installed. Bundled into those two scripts (plain JavaScript run by
 * Node ≥ 20 or Bun), so it uses only Node's own modules.
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { onMusl } from "../../src/util/c-library.ts";
import { MAIN_PACKAGE, NPM_TARGETS, binaryPathInPackage, describeMachine, platformPackageName, targetForMachine, type NpmTarget } from "../../src/util/platform-package.ts";

export interface Machine {
  /** `linux x64 (glibc)`, for messages. */
  description: string;
  /** The release target for it, undefined when pig is not released for it. */
  target: NpmTarget | undefined;
}

export function thisMachine(): Machine {
  const musl = onMusl();
  return { description: describeMachine(process.platform, process.arch, musl), target: targetForMachine(process.platform, process.arch, musl) };
}

export type BinaryLookup = { found: true; path: string; packageName: string } | { found: false; packageName: string };

/**
 * The binary of `target`'s package as Node resolves the package from `fromDir` (npm hoists the
 * optional dependency beside the main package, or nests it inside its `node_modules`).
 */
export function findPlatformBinary(target: NpmTarget, fromDir: string): BinaryLookup {
  const packageName = platformPackageName(target.id);
  try {
    const path = createRequire(join(fromDir, "resolve-from.js")).resolve(`${packageName}/${binaryPathInPackage(target.id)}`);
    return { found: true, path, packageName };
  } catch {
    return { found: false, packageName };
  }
}

/**
 * The real directory of the script Node or Bun runs (`process.argv[1]`, maybe npm's symlink on
 * PATH). Not `__dirname`: the bundler replaces that with the directory it was built in.
 */
export function scriptDir(): string {
  const script = process.argv[1];
  if (script === undefined) throw new Error("no script path in process.argv");
  return dirname(realpathSync(script));
}

/** What the launcher says when it has no binary to run: why, and what to do. */
export function noBinaryMessage(machine: Machine, lookup: BinaryLookup | undefined): string[] {
  if (!lookup) {
    return [
      `${MAIN_PACKAGE} has no binary for this machine (${machine.description}).`,
      `It is released for ${NPM_TARGETS.map((t) => t.id).join(", ")}.`,
      "Build pig from source for this machine: https://github.com/pig-coding-agent/pig#install",
    ];
  }
  return [
    `no binary for this machine (${machine.description}): the package ${lookup.packageName} is not installed.`,
    `It is an optional dependency of ${MAIN_PACKAGE}, left out by npm's --omit=optional (or omit=optional in .npmrc), or by an install made on another platform.`,
    `Reinstall ${MAIN_PACKAGE} with it: npm install ${MAIN_PACKAGE} --include=optional (with -g for a global install)`,
  ];
}
