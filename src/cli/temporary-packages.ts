/**
 * `-e npm:<name>[@v]` and `-e git:…` / a git URL: a package for this run only. It is installed
 * once into the user's own cache (resources/temporary-package-place.ts) and reused while it is
 * there, when it is still the user's alone; the run then loads it as a package given with `-e`, so its extensions come first and its
 * skills, templates and themes before the discovered ones. npm runs through the user's
 * `npmCommand` setting (and `npmIgnoreScripts`). Nothing is written to any settings file.
 */
import { installPackage, isInstalled, type InstallPlace, PackageInstallError, packageDir } from "../resources/package-install.ts";
import { isRemoteSource, PackageSourceError, parsePackageSource } from "../resources/package-source.ts";
import type { EffectiveSettings } from "../resources/settings-effective.ts";
import { SettingsStore } from "../resources/settings-store.ts";
import { prepareTemporaryPlace, reuseProblem } from "../resources/temporary-package-place.ts";
import { UnsafeDirError } from "../util/dir-safety.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr } from "../util/stdio.ts";
import { CliError } from "./errors.ts";

/** Installs each remote `-e` package not yet in the temporary place. */
export async function installTemporaryPackages(paths: readonly string[], cwd: string): Promise<void> {
  let place: InstallPlace | undefined;
  let settings: EffectiveSettings | undefined;
  for (const raw of paths) {
    if (!isRemoteSource(raw)) continue;
    try {
      place ??= prepareTemporaryPlace(cwd);
      const source = parsePackageSource(raw, cwd);
      if (isInstalled(source, place)) {
        const problem = reuseProblem(packageDir(source, place));
        if (problem) throw new CliError(`-e ${raw}: not running the package found in pig's cache: ${problem}`);
        continue;
      }
      // The user's settings only: a project's file could name any command.
      const effective = (settings ??= SettingsStore.load({ agentDir: agentDir(), cwd, includeProject: false }).effective());
      const npmCommand = effective.npmCommand ?? [];
      await installPackage(source, place, {
        ...(npmCommand.length > 0 ? { npmCommand } : {}),
        ignoreScripts: effective.npmIgnoreScripts,
        step: (s) => writeStderr(`pig: -e ${raw}: ${s}\n`),
        notice: (text) => writeStderr(`pig: -e ${raw}: note: ${text}\n`),
      });
    } catch (error) {
      if (error instanceof PackageInstallError) throw new CliError(`-e ${raw}: ${error.reason}${error.outputTail ? `\n${error.outputTail}` : ""}`);
      if (error instanceof PackageSourceError || error instanceof UnsafeDirError) throw new CliError(`-e ${raw}: ${error.message}`);
      throw error;
    }
  }
}
