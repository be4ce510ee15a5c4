/**
 * settings.json: global (`<agent dir>/settings.json`) merged with the project's
 * (`<cwd>/.pig/settings.json`) as upstream: for each project key, two plain objects merge one
 * level deep, anything else replaces. A file that is not valid JSON or has a wrong-typed value
 * is reported (file, place, what was expected) and that scope is ignored for the run.
 *
 * Writing lives in settings-store.ts, defaults and the views the agent reads in
 * settings-effective.ts; this module reads, validates and merges.
 */
import { join } from "node:path";
import * as v from "valibot";
import { THINKING_LEVELS } from "../session/format.ts";
import { checkConfig, joinIssues, notObjectWords } from "../util/config-issues.ts";
import { readConfigText } from "../util/config-read.ts";
import { parseJsonc } from "../util/jsonc.ts";
import { isPlainObject } from "../util/plain-object.ts";

const QueueMode = v.picklist(["all", "one-at-a-time"]);
const nonNegative = v.pipe(v.number(), v.minValue(0));
const strings = v.array(v.string());
const positiveMs = v.pipe(v.number(), v.integer(), v.minValue(1));
const positiveCount = v.pipe(v.number(), v.integer(), v.minValue(1));
const opt = v.optional;

/** A package source, or an object that filters which of its resources load. */
const PackageEntry = v.union([
  v.string(),
  v.looseObject({
    source: v.string(),
    extensions: opt(strings),
    skills: opt(strings),
    prompts: opt(strings),
    themes: opt(strings),
    autoload: opt(v.unknown()),
  }),
]);

/** Accepted and not used: keys of newer upstream versions, so a shared file reads without warnings. */
const unused = opt(v.unknown());

// Loose objects everywhere: keys pig does not know (newer Pi versions, extensions) survive a
// load/write round trip untouched.
export const SettingsSchema = v.looseObject({
  defaultProvider: opt(v.string()),
  defaultModel: opt(v.string()),
  defaultThinkingLevel: opt(v.picklist(THINKING_LEVELS)),
  transport: opt(v.picklist(["sse", "websocket", "websocket-cached", "auto"])),
  steeringMode: opt(QueueMode),
  followUpMode: opt(QueueMode),
  theme: opt(v.string()),
  compaction: opt(
    v.looseObject({
      enabled: opt(v.boolean()),
      reserveTokens: opt(nonNegative),
      keepRecentTokens: opt(nonNegative),
      modelOverrides: unused,
    }),
  ),
  branchSummary: opt(v.looseObject({ reserveTokens: opt(nonNegative), skipPrompt: opt(v.boolean()) })),
  retry: opt(
    v.looseObject({
      enabled: opt(v.boolean()),
      maxRetries: opt(nonNegative),
      baseDelayMs: opt(nonNegative),
      maxAgentDelayMs: unused,
      provider: opt(
        v.looseObject({
          timeoutMs: opt(nonNegative),
          maxRetries: opt(nonNegative),
          maxRetryDelayMs: opt(nonNegative),
          /** pig only: the longest silence from the server (no headers, no body byte) before an attempt fails. */
          idleTimeoutMs: opt(nonNegative),
        }),
      ),
    }),
  ),
  hideThinkingBlock: opt(v.boolean()),
  shellPath: opt(v.string()),
  shellCommandPrefix: opt(v.string()),
  /** pig only: credentials the model's commands keep (the bash tool drops every other). */
  shellEnvPassthrough: opt(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be the name of an environment variable (letters, digits and _)")))),
  quietStartup: opt(v.boolean()),
  npmCommand: opt(strings),
  /** pig only: package installs pass --ignore-scripts to npm (no lifecycle scripts run). */
  npmIgnoreScripts: opt(v.boolean()),
  collapseChangelog: opt(v.boolean()),
  lastChangelogVersion: opt(v.string()),
  enableInstallTelemetry: opt(v.boolean()),
  packages: opt(v.array(PackageEntry)),
  extensions: opt(strings),
  /** pig only: how long extension handlers may take (extensions run in their own processes). */
  extensionTimeouts: opt(v.looseObject({ eventMs: opt(positiveMs) })),
  skills: opt(strings),
  prompts: opt(strings),
  themes: opt(strings),
  enableSkillCommands: opt(v.boolean()),
  terminal: opt(
    v.looseObject({
      showImages: opt(v.boolean()),
      imageWidthCells: opt(v.number()),
      clearOnShrink: opt(v.boolean()),
      showTerminalProgress: opt(v.boolean()),
      hyperlinks: unused,
      images: unused,
      trueColor: unused,
    }),
  ),
  images: opt(v.looseObject({ autoResize: opt(v.boolean()), blockImages: opt(v.boolean()) })),
  /** pig only: the bound on what one result of a tool that does not bound its own (an extension's) gives the model. */
  toolOutput: opt(v.looseObject({ maxLines: opt(positiveCount), maxBytes: opt(positiveCount) })),
  enabledModels: opt(strings),
  doubleEscapeAction: opt(v.picklist(["tree", "fork", "none"])),
  treeFilterMode: opt(v.picklist(["default", "no-tools", "user-only", "labeled-only", "all"])),
  thinkingBudgets: opt(
    v.looseObject({ minimal: opt(nonNegative), low: opt(nonNegative), medium: opt(nonNegative), high: opt(nonNegative) }),
  ),
  // Ranges (0–3, 3–20) are clamped when read rather than rejected: out of range is not worth
  // ignoring the whole file for.
  editorPaddingX: opt(v.number()),
  autocompleteMaxVisible: opt(v.number()),
  /** pig only: screens of the conversation printed when a session is opened (0–100). */
  replayScreens: opt(v.number()),
  showHardwareCursor: opt(v.boolean()),
  markdown: opt(v.looseObject({ codeBlockIndent: opt(v.string()), mermaid: unused })),
  warnings: opt(v.looseObject({ anthropicExtraUsage: opt(v.boolean()) })),
  sessionDir: opt(v.string()),
  /** pig only: tool names active by default. */
  defaultTools: opt(strings),
  // Old names migrated on read; they stay only when the new name is set too.
  queueMode: unused,
  websockets: unused,
  modelThinkingLevels: unused,
  showCacheMissNotices: unused,
  externalEditor: unused,
  defaultProjectTrust: unused,
  enableAnalytics: unused,
  trackingId: unused,
  outputPad: unused,
  httpProxy: unused,
  httpIdleTimeoutMs: unused,
  websocketConnectTimeoutMs: unused,
  toolTimeoutMs: unused,
  tuiMode: unused,
  fullscreenExitOutput: unused,
  fullscreenScrollbar: unused,
  fullscreenCopyOnSelect: unused,
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export interface SettingsDiagnostic {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;


/** Upstream's load-time renames of old keys. Returns a new object; the input is not changed. */
export function migrateSettings(raw: Json): Json {
  const out: Json = { ...raw };
  if ("queueMode" in out && !("steeringMode" in out)) {
    out.steeringMode = out.queueMode;
    delete out.queueMode;
  }
  if (typeof out.websockets === "boolean" && !("transport" in out)) {
    out.transport = out.websockets ? "websocket" : "sse";
    delete out.websockets;
  }
  if (isPlainObject(out.skills)) {
    const old = out.skills;
    if (old.enableSkillCommands !== undefined && out.enableSkillCommands === undefined) {
      out.enableSkillCommands = old.enableSkillCommands;
    }
    // An empty or missing directory list leaves no `skills` key at all, as upstream.
    if (Array.isArray(old.customDirectories) && old.customDirectories.length > 0) out.skills = old.customDirectories;
    else delete out.skills;
  }
  if (isPlainObject(out.retry) && "maxDelayMs" in out.retry) {
    const { maxDelayMs, ...retry } = out.retry;
    const provider = isPlainObject(retry.provider) ? retry.provider : undefined;
    // An explicit new-style value wins over the old one; the old key goes either way.
    if (typeof maxDelayMs === "number" && (provider?.maxRetryDelayMs ?? null) === null) {
      retry.provider = { ...provider, maxRetryDelayMs: maxDelayMs };
    }
    out.retry = retry;
  }
  return out;
}

/** How reading one settings file went. A scope with any problem is never written. */
export type SettingsProblem = "unreadable" | "syntax" | "type";

export interface SettingsFileResult {
  /** Validated, migrated settings; `{}` for an absent file, undefined when unusable. */
  settings: Settings | undefined;
  problem?: SettingsProblem;
  /** The problem, then one warning per unknown key (those do not make the file unusable). */
  diagnostics: SettingsDiagnostic[];
}

const IGNORED = "the settings in this file are ignored for this run";
const KEPT = "pig ignores it and leaves it in the file";

/** Reads, parses, migrates and validates one file, saying exactly what went wrong. */
export function readSettingsScope(path: string): SettingsFileResult {
  const unusable = (problem: SettingsProblem, what: string, extra: SettingsDiagnostic[] = []): SettingsFileResult => ({
    settings: undefined,
    problem,
    diagnostics: [{ path, message: `${path}: ${what}; ${IGNORED}` }, ...extra],
  });
  const read = readConfigText(path);
  if (read.kind === "absent") return { settings: {}, diagnostics: [] };
  if (read.kind === "unreadable") return unusable("unreadable", read.reason);
  const text = read.text;
  // An empty file counts as `{}`, as upstream (a fresh `touch settings.json` is not an error).
  if (text.trim() === "") return { settings: {}, diagnostics: [] };
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (error) {
    return unusable("syntax", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(raw)) {
    return unusable("syntax", `expected a JSON object ({ … }) at the top level, not ${notObjectWords(raw)}`);
  }
  const checked = checkConfig(SettingsSchema, migrateSettings(raw), text);
  const unknown = checked.unknownKeys.map((words) => ({ path, message: `${path}: ${words}; ${KEPT}` }));
  if (!checked.success) return unusable("type", joinIssues(checked.issues), unknown);
  return { settings: checked.output, diagnostics: unknown };
}

/** Reads one settings file: `{}` when absent; undefined (with a diagnostic) when unusable. */
export function readSettingsFile(path: string, diagnostics: SettingsDiagnostic[]): Settings | undefined {
  const result = readSettingsScope(path);
  diagnostics.push(...result.diagnostics);
  return result.settings;
}

/** Project settings over global ones: nested objects merge one level, everything else replaces. */
export function mergeSettings(global: Settings, project: Settings): Settings {
  const out: Json = { ...global };
  for (const [key, value] of Object.entries(project)) {
    if (value === undefined) continue;
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  return out as Settings;
}

export function globalSettingsPath(agentDir: string): string {
  return join(agentDir, "settings.json");
}

export function projectSettingsPath(cwd: string): string {
  return join(cwd, ".pig", "settings.json");
}

export interface LoadedSettings {
  settings: Settings;
  global: Settings;
  project: Settings;
  diagnostics: SettingsDiagnostic[];
}

export function loadSettings(agentDir: string, cwd: string, includeProject: boolean): LoadedSettings {
  const diagnostics: SettingsDiagnostic[] = [];
  const global = readSettingsFile(globalSettingsPath(agentDir), diagnostics) ?? {};
  const project = includeProject ? (readSettingsFile(projectSettingsPath(cwd), diagnostics) ?? {}) : {};
  return { settings: mergeSettings(global, project), global, project, diagnostics };
}
