/**
 * Settings at runtime: the global and project scopes as loaded, the merged view, and writes.
 *
 * A write changes only what this process changed, so two pig processes (or a person editing the
 * file) do not undo each other: take `<file>.lock`, re-read the file, put in exactly the keys
 * set since the last write (for nested keys, only those nested keys), write a temp file and
 * rename it over the original, release. A scope whose file pig could not use at load (unreadable,
 * not JSON, a value of the wrong type) is never written: the change holds for this run and a
 * diagnostic says why.
 */
import {
  chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import * as v from "valibot";
import { withFileLock, type LockOptions } from "../util/file-lock.ts";
import { editJsonc, parseJsonc } from "../util/jsonc.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { expectedWords } from "../util/config-issues.ts";
import { globalSettingsPath, mergeSettings, migrateSettings, projectSettingsPath, readSettingsScope, SettingsSchema, type Settings, type SettingsDiagnostic, type SettingsProblem } from "./settings.ts";
import { effectiveSettings, type EffectiveSettings } from "./settings-effective.ts";

export { FileLockError, withFileLock, type LockOptions } from "../util/file-lock.ts";

// ---- Files ------------------------------------------------------------------------------------

/** Writes through a temp file and a rename, so readers never see half a file. Follows symlinks. */
export function writeFileAtomic(path: string, text: string, mode?: number): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // Does not exist yet.
  }
  const existingMode = existsSync(target) ? statSync(target).mode & 0o7777 : undefined;
  const temp = `${target}.${process.pid}-${crypto.randomUUID()}.tmp`;
  try {
    const wanted = mode ?? existingMode;
    writeFileSync(temp, text, { mode: wanted ?? 0o644 });
    // The creation mode passes through the umask; an explicit or inherited mode must not.
    if (wanted !== undefined) chmodSync(temp, wanted);
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Never created.
    }
    throw error;
  }
}

// ---- Paths inside settings objects ------------------------------------------------------------

type Json = Record<string, unknown>;

function getIn(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A copy of `obj` with `path` set (undefined removes it); non-objects on the way become `{}`. */
function setIn(obj: Json, path: readonly string[], value: unknown): Json {
  const [key, ...rest] = path;
  if (key === undefined) return obj;
  const out: Json = { ...obj };
  if (rest.length === 0) {
    if (value === undefined) delete out[key];
    else out[key] = value;
    return out;
  }
  const child = isPlainObject(out[key]) ? (out[key] as Json) : {};
  out[key] = setIn(child, rest, value);
  return out;
}

/** The file's new text: its current content with only `paths` taken from `settings`. */
function updatedText(current: string | undefined, paths: readonly (readonly string[])[], settings: Json): string {
  const ordered = [...paths].sort((a, b) => a.length - b.length);
  let strict: unknown;
  try {
    strict = current === undefined || current.trim() === "" ? {} : JSON.parse(current);
  } catch {
    strict = undefined;
  }
  if (isPlainObject(strict)) {
    let doc = migrateSettings(strict);
    for (const path of ordered) doc = setIn(doc, path, getIn(settings, path));
    return `${JSON.stringify(doc, null, 2)}\n`;
  }
  // Comments or trailing commas: edit the text in place so the person's comments survive.
  const lenient = parseJsonc(current!);
  if (!isPlainObject(lenient)) throw new Error("it no longer holds a JSON object");
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  let text = current!;
  for (const path of ordered) {
    const value = getIn(settings, path);
    try {
      text = editJsonc(text, [...path], value, formattingOptions);
    } catch {
      // Something on the way is not an object: replace the whole top-level key instead.
      const top = path[0]!;
      const parsed = parseJsonc(text) as Json;
      const whole = setIn({ [top]: parsed[top] }, path, value)[top];
      text = editJsonc(text, [top], whole, formattingOptions);
    }
  }
  return text;
}

// ---- The store --------------------------------------------------------------------------------

export type SettingsScope = "global" | "project";

interface ScopeState {
  readonly file: string;
  settings: Settings;
  problem?: SettingsProblem;
  /** Paths set since the last successful write, as JSON to dedupe them. */
  pending: Set<string>;
  /** Keys not saved because the file was unusable at load, and not yet reported. */
  refused: Set<string>;
  /** Keys already reported as not saved, so each is said once per run. */
  reported: Set<string>;
}

export interface SettingsStoreOptions {
  agentDir: string;
  cwd: string;
  /** False for an untrusted project: its file is not read (writes to it still work). */
  includeProject: boolean;
  lock?: LockOptions;
}

export class SettingsValueError extends Error {
  override name = "SettingsValueError";
}

export class SettingsStore {
  private readonly scopes: Record<SettingsScope, ScopeState>;
  private merged: Settings = {};
  private readonly log: SettingsDiagnostic[] = [];

  private constructor(private readonly options: SettingsStoreOptions) {
    const blank = (file: string): ScopeState => ({ file, settings: {}, pending: new Set(), refused: new Set(), reported: new Set() });
    this.scopes = { global: blank(globalSettingsPath(options.agentDir)), project: blank(projectSettingsPath(options.cwd)) };
    this.reload();
  }

  static load(options: SettingsStoreOptions): SettingsStore {
    return new SettingsStore(options);
  }

  /** Re-reads both files. Unsaved changes are dropped, as upstream's reload does. */
  reload(): void {
    for (const name of ["global", "project"] as const) {
      const scope = this.scopes[name];
      scope.pending.clear();
      scope.refused.clear();
      scope.reported.clear();
      scope.problem = undefined;
      scope.settings = {};
      if (name === "project" && !this.options.includeProject) continue;
      const result = readSettingsScope(scope.file);
      scope.settings = result.settings ?? {};
      scope.problem = result.problem;
      this.log.push(...result.diagnostics);
    }
    this.remerge();
  }

  /** The effective settings: project over global. */
  get settings(): Settings {
    return this.merged;
  }

  get global(): Settings {
    return structuredClone(this.scopes.global.settings);
  }

  get project(): Settings {
    return structuredClone(this.scopes.project.settings);
  }

  effective(env?: Record<string, string | undefined>): EffectiveSettings {
    return effectiveSettings(this.merged, env);
  }

  get(path: readonly string[]): unknown {
    return getIn(this.merged, path);
  }

  /** Whether changes to this scope can reach its file (false when the file was unusable at load). */
  writable(scope: SettingsScope): boolean {
    return this.scopes[scope].problem === undefined;
  }

  get diagnostics(): readonly SettingsDiagnostic[] {
    this.reportRefusals();
    return this.log;
  }

  /** Returns and forgets the diagnostics collected so far. */
  drainDiagnostics(): SettingsDiagnostic[] {
    this.reportRefusals();
    return this.log.splice(0);
  }

  /** One message per scope for the keys it could not save since the last report (a model switch sets two). */
  private reportRefusals(): void {
    for (const scope of Object.values(this.scopes)) {
      if (scope.refused.size === 0) continue;
      const keys = [...scope.refused].join(", ");
      for (const key of scope.refused) scope.reported.add(key);
      scope.refused.clear();
      this.log.push({
        path: scope.file,
        message: `${scope.file}: not saving ${keys}: pig could not use this file when it started, and it does not overwrite a file it could not use. Changes apply to this run only; fix the file and restart pig to save them.`,
      });
    }
  }

  /** Runtime changes go to the global file, as upstream's setters do. */
  set(path: readonly string[], value: unknown): boolean {
    return this.setIn("global", path, value);
  }

  setGlobal(path: readonly string[], value: unknown): boolean {
    return this.setIn("global", path, value);
  }

  /** For project-scope resource lists (`install -l`, `config`). */
  setProject(path: readonly string[], value: unknown): boolean {
    return this.setIn("project", path, value);
  }

  /**
   * Several keys of one scope in one write (`config` saves a package list and resource lists
   * together): all of them reach the file, or none. Throws `SettingsValueError` as `set` does,
   * before anything changes.
   */
  setAll(scope: SettingsScope, changes: readonly (readonly [path: readonly string[], value: unknown])[]): boolean {
    const state = this.scopes[scope];
    let next = state.settings;
    for (const [path, value] of changes) next = this.checked(next, path, value);
    state.settings = next;
    for (const [path] of changes) state.pending.add(JSON.stringify(path));
    this.remerge();
    return this.write(state);
  }

  hasPendingWrites(scope?: SettingsScope): boolean {
    return scope ? this.scopes[scope].pending.size > 0 : this.hasPendingWrites("global") || this.hasPendingWrites("project");
  }

  /** Retries writes that failed earlier (a busy lock); true when nothing is left unsaved. */
  flush(): boolean {
    const global = this.write(this.scopes.global);
    const project = this.write(this.scopes.project);
    return global && project;
  }

  /**
   * Applies the change in memory at once and writes it to the scope's file. Returns whether the
   * file now holds it; if not, a diagnostic explains why. Throws `SettingsValueError` for a
   * value of the wrong type (nothing changes then).
   */
  private setIn(name: SettingsScope, path: readonly string[], value: unknown): boolean {
    return this.setAll(name, [[path, value]]);
  }

  /** `settings` with `path` set, validated; throws `SettingsValueError` for a value of the wrong type. */
  private checked(settings: Settings, path: readonly string[], value: unknown): Settings {
    if (path.length === 0 || path.some((key) => key === "")) throw new SettingsValueError("a setting path needs at least one non-empty key");
    const next = setIn(settings, path, value === undefined ? undefined : structuredClone(value));
    const checked = v.safeParse(SettingsSchema, next);
    if (!checked.success) {
      const issue = checked.issues[0]!;
      throw new SettingsValueError(
        `setting "${v.getDotPath(issue) ?? path.join(".")}" must be ${expectedWords(issue.expected)}, not ${issue.received}`,
      );
    }
    return checked.output;
  }

  private remerge(): void {
    this.merged = mergeSettings(this.scopes.global.settings, this.scopes.project.settings);
  }

  private write(scope: ScopeState): boolean {
    if (scope.pending.size === 0) return true;
    const paths = [...scope.pending].map((p) => JSON.parse(p) as string[]);
    const keys = paths.map((p) => p.join(".")).join(", ");
    if (scope.problem !== undefined) {
      for (const key of paths.map((p) => p.join("."))) if (!scope.reported.has(key)) scope.refused.add(key);
      return false;
    }
    try {
      mkdirSync(dirname(scope.file), { recursive: true });
      withFileLock(
        scope.file,
        () => {
          const current = existsSync(scope.file) ? readFileSync(scope.file, "utf8") : undefined;
          writeFileAtomic(scope.file, updatedText(current, paths, scope.settings));
        },
        this.options.lock,
      );
    } catch (error) {
      this.log.push({
        path: scope.file,
        message: `${scope.file}: could not save ${keys}: ${(error as Error).message}. The change applies to this run; pig tries again at the next change.`,
      });
      return false;
    }
    scope.pending.clear();
    return true;
  }
}
