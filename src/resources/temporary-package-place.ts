/**
 * Where `-e npm:…` / `-e git:…` / `-e <git URL>` packages live: fetched once into
 * `<tmp>/pig-extensions/` (`npm/` and `git/`, laid out as in a scope) and found there by later
 * runs. The `-e` value itself stays what the user typed, so resources keep it as their source;
 * this module says which folder it stands for.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageDir, type InstallPlace } from "./package-install.ts";
import { isRemoteSource, PackageSourceError, parsePackageSource } from "./package-source.ts";

export function temporaryPlace(cwd: string): InstallPlace {
  return { agentDir: join(tmpdir(), "pig-extensions"), cwd, scope: "user" };
}

/** The folder a remote `-e` value is installed in; undefined for a local path (or a source pig cannot read). */
export function temporaryPackageDir(raw: string, cwd: string): string | undefined {
  if (!isRemoteSource(raw)) return undefined;
  try {
    return packageDir(parsePackageSource(raw, cwd), temporaryPlace(cwd));
  } catch (error) {
    if (error instanceof PackageSourceError) return undefined;
    throw error;
  }
}
