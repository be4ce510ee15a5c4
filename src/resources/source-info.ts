/**
 * Where a loaded resource (skill, prompt template, theme, extension and its commands/tools) came
 * from. The shape is Pi's `sourceInfo`, which extensions and RPC clients see, so the field names
 * and the values of `source`/`scope`/`origin` follow upstream exactly.
 */
import * as v from "valibot";

export const SourceScopeSchema = v.picklist(["user", "project", "temporary"]);
export type SourceScope = v.InferOutput<typeof SourceScopeSchema>;

export const SourceOriginSchema = v.picklist(["package", "top-level"]);
export type SourceOrigin = v.InferOutput<typeof SourceOriginSchema>;

export const SourceInfoSchema = v.object({
  /** The resource's own file (or a synthetic `<kind:name>` label). */
  path: v.string(),
  /** `local`, `auto`, `cli`, a package source such as `npm:foo`, `extension:<name>`, `inline`, `sdk`, `builtin`. */
  source: v.string(),
  scope: SourceScopeSchema,
  origin: SourceOriginSchema,
  /** The directory the resource's relative references and patterns are resolved against. */
  baseDir: v.optional(v.string()),
});
export type SourceInfo = v.InferOutput<typeof SourceInfoSchema>;

/**
 * Settings scopes as `sourceInfo` names them: the project's `.pig/settings.json` and the user's
 * `<agentDir>/settings.json` (which the settings store, like `pig config`, calls `global`).
 */
export type SourceSettingsScope = "user" | "project";

function make(path: string, source: string, scope: SourceScope, origin: SourceOrigin, baseDir?: string): SourceInfo {
  // Keep `baseDir` absent rather than undefined so serialised records match upstream's.
  return baseDir === undefined ? { path, source, scope, origin } : { path, source, scope, origin, baseDir };
}

/** A file found through a plain `skills`/`prompts`/`themes`/`extensions` settings entry. Upstream gives these no baseDir. */
export function settingsEntrySource(path: string, scope: SourceSettingsScope): SourceInfo {
  return make(path, "local", scope, "top-level");
}

/** A file found in an auto-discovered directory; baseDir is the scope's settings base (`<cwd>/.pig` or the agent dir). */
export function autoDiscoveredSource(path: string, scope: SourceSettingsScope, settingsBaseDir: string): SourceInfo {
  return make(path, "auto", scope, "top-level", settingsBaseDir);
}

/** A resource contributed by a package (`source` is the package source string, e.g. `npm:foo`). */
export function packageSource(path: string, source: string, scope: SourceScope, packageRoot?: string): SourceInfo {
  return make(path, source, scope, "package", packageRoot);
}

/** A local `-e`/`--extension` path. */
export function cliExtensionSource(path: string): SourceInfo {
  return make(path, "cli", "temporary", "top-level");
}

/**
 * A `--skill` / `--prompt-template` / `--theme` path: scope is `user` or `project` when the file
 * lies under that scope's directory for the kind, else `temporary`.
 */
export function cliPathSource(path: string, scope: SourceScope, baseDir: string): SourceInfo {
  return make(path, "local", scope, "top-level", baseDir);
}
