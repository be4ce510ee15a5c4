/**
 * The extensions a Piglet Binary carries inside itself (`pig build`). The binary's generated
 * entry module names them here before pig's CLI starts; discovery puts them first in load order,
 * as if each had been given with `-e`, and the host runs them in pig's own process
 * (host/ext-process.ts, kind `linked`). A plain pig has none. Nothing here imports anything, so
 * `pig --version` can list them at no cost.
 */
export interface LinkedExtension {
  /** The extension's id: the absolute path it was built from. */
  id: string;
  /** What `--version` shows: the path, or the package name and version of its package.json. */
  label: string;
  /** Evaluates the extension's module (bundled into the binary, evaluated only when loaded). */
  load(): Promise<{ default?: unknown }>;
}

/** The global a linked extension's imports of host modules read from (runner/linked.ts sets it). */
export const HOST_MODULE_HOOK = "__pigLinkedHostModule";

let linked: readonly LinkedExtension[] = [];

/** Called once, by a Piglet Binary's entry module. */
export function linkExtensions(list: readonly LinkedExtension[]): void {
  linked = [...list];
}

export function linkedExtensions(): readonly LinkedExtension[] {
  return linked;
}
