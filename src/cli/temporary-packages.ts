/**
 * `-e npm:<name>[@v]` and `-e git:…` / a git URL: a package for this run only. It is installed
 * once into `<tmp>/pig-extensions/` (npm/ and git/ as in a scope, package-install.ts) and reused
 * while it is there; the run then loads it as a local package given with `-e`, so its
 * extensions come first and its skills, templates and themes before the discovered ones. Nothing
 * is written to any settings file.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installPackage, PackageInstallError } from "../resources/package-install.ts";
import { isRemoteSource, PackageSourceError, parsePackageSource } from "../resources/package-source.ts";
import { writeStderr } from "../util/stdio.ts";
import { CliError } from "./errors.ts";

/** The `-e` values with each remote package replaced by the folder it is installed in. */
export async function installTemporaryPackages(paths: readonly string[], cwd: string): Promise<string[]> {
  const place = { agentDir: join(tmpdir(), "pig-extensions"), cwd, scope: "user" as const };
  const out: string[] = [];
  for (const raw of paths) {
    if (!isRemoteSource(raw)) {
      out.push(raw);
      continue;
    }
    try {
      const source = parsePackageSource(raw, cwd);
      out.push(await installPackage(source, place, { step: (s) => writeStderr(`pig: -e ${raw}: ${s}\n`) }));
    } catch (error) {
      if (error instanceof PackageInstallError) throw new CliError(`-e ${raw}: ${error.reason}${error.outputTail ? `\n${error.outputTail}` : ""}`);
      if (error instanceof PackageSourceError) throw new CliError(`-e ${raw}: ${error.message}`);
      throw error;
    }
  }
  return out;
}
