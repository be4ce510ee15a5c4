/**
 * Where an installed package lives (package-install.ts's table), and whether it is there: what
 * every run asks of the packages its settings name. Installing them is package-install.ts's job,
 * loaded only by the commands that install.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PackageSource } from "./package-source.ts";
import { projectConfigDir } from "./resource-paths.ts";

export type InstallScope = "user" | "project";

export interface InstallPlace {
  agentDir: string;
  cwd: string;
  scope: InstallScope;
}

/** A step that failed: the package, the step, and the end of what the command printed. */
export class PackageInstallError extends Error {
  constructor(
    readonly source: string,
    readonly reason: string,
    readonly outputTail: string,
  ) {
    super(`${source}: ${reason}${outputTail ? `\n${outputTail}` : ""}`);
    this.name = "PackageInstallError";
  }
}

/** The folder of a scope: the agent directory, or the project's `.pig/` (its settings file's folder too). */
export function scopeDir(place: Pick<InstallPlace, "agentDir" | "cwd" | "scope">): string {
  return place.scope === "user" ? place.agentDir : projectConfigDir(place.cwd);
}

/** The folder npm packages of this scope are installed in (it holds a package.json of its own). */
export function npmRoot(place: InstallPlace): string {
  return join(scopeDir(place), "npm");
}

const TARBALL = /\.(tgz|tar\.gz)$/;

/** A local path to an npm tarball (what `npm pack` writes): installed with npm like a registry package. */
export function isTarball(source: PackageSource): boolean {
  return source.kind === "local" && TARBALL.test(source.path);
}

const tarballNames = new Map<string, string>();

/** The package name inside an npm tarball (its package/package.json), or an error saying why not. */
export function tarballName(path: string): string {
  const known = tarballNames.get(path);
  if (known) return known;
  const proc = Bun.spawnSync(["tar", "-xzOf", path, "package/package.json"], { stdout: "pipe", stderr: "pipe" });
  let name: unknown;
  try {
    name = proc.exitCode === 0 ? (JSON.parse(proc.stdout.toString()) as { name?: unknown }).name : undefined;
  } catch {
    name = undefined;
  }
  if (typeof name !== "string" || name === "") {
    throw new PackageInstallError(path, "is not an npm tarball with a named package/package.json", proc.stderr.toString().trim());
  }
  tarballNames.set(path, name);
  return name;
}

/** Where the package lives once installed. */
export function packageDir(source: PackageSource, place: InstallPlace): string {
  if (source.kind === "local" && isTarball(source)) {
    if (!existsSync(source.path)) return source.path;
    return join(npmRoot(place), "node_modules", ...tarballName(source.path).split("/"));
  }
  if (source.kind === "local") return source.path;
  if (source.kind === "npm") return join(npmRoot(place), "node_modules", ...source.name.split("/"));
  return join(scopeDir(place), "git", ...source.dir.split("/"));
}

export function isInstalled(source: PackageSource, place: InstallPlace): boolean {
  try {
    return existsSync(packageDir(source, place));
  } catch (error) {
    // A tarball pig cannot read is not installed.
    if (error instanceof PackageInstallError) return false;
    throw error;
  }
}
