/**
 * Reading a local directory as a Pi package, as upstream does for `-e <dir>` (and for installed
 * packages): a package.json with a `pi` object lists each kind's resources; without one, the
 * conventional `extensions/`, `skills/`, `prompts/` and `themes/` folders hold them. A directory
 * with neither is not a package (nor is one holding pig's own `pig-extension.json`: that is an
 * extension) and the caller treats it as a single extension.
 *
 * Manifest entries are paths relative to the package root, or globs expanded there (dot paths
 * left out); `!glob`, `+path` and `-path` entries then filter the files the others stand for,
 * with the settings' filter syntax (resource-patterns.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import * as v from "valibot";
import { EXTENSION_MANIFEST_FILE } from "./resource-files.ts";
import { filesOfEntry, RESOURCE_KINDS, type ResourceKind } from "./resource-paths.ts";
import { applyPatterns } from "./resource-patterns.ts";

/** Each kind's files, already filtered by the manifest. */
export type PackageFiles = Record<ResourceKind, string[]>;

const Manifest = v.record(v.string(), v.unknown());
const PiManifestSchema = v.looseObject({ pig: v.optional(v.unknown()), pi: v.optional(v.unknown()) });

/**
 * The `pig` object of `<dir>/package.json`, else its `pi` object (so pi packages work
 * unchanged); undefined when there is neither (or the file is not JSON).
 */
function piManifest(dir: string): Record<string, unknown> | undefined {
  try {
    const parsed = v.safeParse(PiManifestSchema, JSON.parse(readFileSync(join(dir, "package.json"), "utf8").replace(/^\uFEFF/, "")));
    if (!parsed.success) return undefined;
    for (const value of [parsed.output.pig, parsed.output.pi]) {
      const manifest = v.safeParse(Manifest, value);
      if (manifest.success && !Array.isArray(value)) return manifest.output;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** A kind's manifest list, when it is an array of strings (anything else lists nothing, as upstream). */
function manifestEntries(pi: Record<string, unknown>, kind: ResourceKind): string[] {
  const list = pi[kind];
  return Array.isArray(list) && list.every((e) => typeof e === "string") ? list : [];
}

const isOverride = (entry: string) => /^[!+-]/.test(entry);
const isGlob = (entry: string) => entry.includes("*") || entry.includes("?");

function expandGlob(pattern: string, root: string): string[] {
  const matches = [...new Bun.Glob(pattern).scanSync({ cwd: root, onlyFiles: false, dot: false })];
  return matches
    .map((m) => resolve(root, m))
    .filter((p) => relative(root, p).split(sep).every((part) => part === ".." || !part.startsWith(".")))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function manifestFiles(kind: ResourceKind, entries: readonly string[], root: string): string[] {
  const paths = entries.filter((e) => !isOverride(e)).flatMap((e) => (isGlob(e) ? expandGlob(e, root) : [resolve(root, e)]));
  const files = paths.flatMap((p) => filesOfEntry(kind, p));
  const enabled = applyPatterns(files, entries.filter(isOverride), root);
  return files.filter((f) => enabled.has(f));
}

/** The package's resources, or undefined when `dir` is not a package. */
export function readLocalPackage(dir: string): PackageFiles | undefined {
  if (existsSync(join(dir, EXTENSION_MANIFEST_FILE))) return undefined;
  const pi = piManifest(dir);
  if (pi) {
    const out = {} as PackageFiles;
    for (const kind of RESOURCE_KINDS) out[kind] = manifestFiles(kind, manifestEntries(pi, kind), dir);
    return out;
  }
  const out = {} as PackageFiles;
  let any = false;
  for (const kind of RESOURCE_KINDS) {
    const folder = join(dir, kind);
    any ||= existsSync(folder);
    out[kind] = existsSync(folder) ? filesOfEntry(kind, folder) : [];
  }
  return any ? out : undefined;
}
