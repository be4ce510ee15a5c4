/**
 * Which pig executable an RPC client starts: the one the program names, else `PIG_BINARY`, else
 * the binary package npm installed beside `pig-coding-agent` for this machine, else `pig` on
 * PATH. Node's standard library only, so the client runs on Node and Bun alike.
 */
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { onMusl } from "../util/c-library.ts";
import { binaryPathInPackage, describeMachine, platformPackageName, targetForMachine } from "../util/platform-package.ts";

/** What the search reads of the machine; the real one by default, a made-up one in tests. */
export interface BinarySearchPlaces {
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  musl: boolean;
  /** Resolves a package's file as `require.resolve` does from the SDK; throws when it is not installed. */
  resolve(specifier: string): string;
}

/** This machine, with `env` for PIG_BINARY and PATH (pig's environment, which may differ from this process's). */
export function machinePlaces(env: Record<string, string | undefined> = process.env): BinarySearchPlaces {
  const require = createRequire(import.meta.url);
  return { env, platform: process.platform, arch: process.arch, musl: onMusl(), resolve: (s) => require.resolve(s) };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `pig` (`pig.exe` on Windows) in the PATH directories, or undefined. */
function onPath(env: Record<string, string | undefined>, platform: string): string | undefined {
  const name = platform === "win32" ? "pig.exe" : "pig";
  for (const dir of (env.PATH ?? env.Path ?? "").split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The pig executable to start. `explicit` (the client's `binary` option) wins; a place that is
 * set but holds no executable is an error naming it, not a reason to look further.
 */
export function findPigBinary(explicit?: string, places: BinarySearchPlaces = machinePlaces()): string {
  if (explicit !== undefined) {
    if (!isExecutableFile(explicit)) throw new Error(`pig: the binary option names ${explicit}, which is not an executable file`);
    return explicit;
  }
  const fromEnv = places.env.PIG_BINARY;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) throw new Error(`pig: PIG_BINARY names ${fromEnv}, which is not an executable file`);
    return fromEnv;
  }
  const looked: string[] = ["the binary option (not given)", "PIG_BINARY (not set)"];
  const target = targetForMachine(places.platform, places.arch, places.musl);
  if (target) {
    const pkg = platformPackageName(target.id);
    try {
      const binary = join(dirname(places.resolve(`${pkg}/package.json`)), binaryPathInPackage(target.id));
      if (isExecutableFile(binary)) return binary;
      looked.push(`the package ${pkg} (installed, but ${binary} is not an executable file)`);
    } catch {
      looked.push(`the package ${pkg} (not installed)`);
    }
  } else {
    looked.push(`a binary package for ${describeMachine(places.platform, places.arch, places.musl)} (pig is not released for it)`);
  }
  const found = onPath(places.env, places.platform);
  if (found) return found;
  looked.push(`${places.platform === "win32" ? "pig.exe" : "pig"} on PATH (not found)`);
  throw new Error(`pig: no pig binary found; looked at ${looked.join(", ")}. Install it with \`npm i pig-coding-agent\` or set PIG_BINARY.`);
}
