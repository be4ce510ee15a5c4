/**
 * settings.json: global (`<agent dir>/settings.json`) merged with the project's
 * (`<cwd>/.pig/settings.json`) as upstream: for each project key, two plain objects merge one
 * level deep, anything else replaces. A file that is not valid JSON or has a wrong-typed value
 * is reported (file, place, what was expected) and that scope is ignored for the run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { THINKING_LEVELS } from "../session/format.ts";
import { JsoncError, parseJsonc } from "../util/jsonc.ts";

const QueueMode = v.picklist(["all", "one-at-a-time"]);
const nonNegative = v.pipe(v.number(), v.minValue(0));

export const SettingsSchema = v.looseObject({
  defaultProvider: v.optional(v.string()),
  defaultModel: v.optional(v.string()),
  defaultThinkingLevel: v.optional(v.picklist(THINKING_LEVELS)),
  transport: v.optional(v.picklist(["sse", "websocket", "websocket-cached", "auto"])),
  steeringMode: v.optional(QueueMode),
  followUpMode: v.optional(QueueMode),
  theme: v.optional(v.string()),
  compaction: v.optional(
    v.looseObject({
      enabled: v.optional(v.boolean()),
      reserveTokens: v.optional(nonNegative),
      keepRecentTokens: v.optional(nonNegative),
    }),
  ),
  branchSummary: v.optional(
    v.looseObject({ reserveTokens: v.optional(nonNegative), skipPrompt: v.optional(v.boolean()) }),
  ),
  retry: v.optional(
    v.looseObject({
      enabled: v.optional(v.boolean()),
      maxRetries: v.optional(nonNegative),
      baseDelayMs: v.optional(nonNegative),
      provider: v.optional(
        v.looseObject({
          timeoutMs: v.optional(nonNegative),
          maxRetries: v.optional(nonNegative),
          maxRetryDelayMs: v.optional(nonNegative),
        }),
      ),
    }),
  ),
  hideThinkingBlock: v.optional(v.boolean()),
  shellPath: v.optional(v.string()),
  shellCommandPrefix: v.optional(v.string()),
  quietStartup: v.optional(v.boolean()),
  packages: v.optional(v.array(v.union([v.string(), v.looseObject({ source: v.string() })]))),
  extensions: v.optional(v.array(v.string())),
  skills: v.optional(v.array(v.string())),
  prompts: v.optional(v.array(v.string())),
  themes: v.optional(v.array(v.string())),
  enableSkillCommands: v.optional(v.boolean()),
  images: v.optional(v.looseObject({ autoResize: v.optional(v.boolean()), blockImages: v.optional(v.boolean()) })),
  enabledModels: v.optional(v.array(v.string())),
  doubleEscapeAction: v.optional(v.picklist(["tree", "fork", "none"])),
  thinkingBudgets: v.optional(v.record(v.string(), v.number())),
  sessionDir: v.optional(v.string()),
  defaultTools: v.optional(v.array(v.string())),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export interface SettingsDiagnostic {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Upstream's load-time renames of old keys. */
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
    if (typeof old.enableSkillCommands === "boolean" && !("enableSkillCommands" in out)) out.enableSkillCommands = old.enableSkillCommands;
    out.skills = Array.isArray(old.customDirectories) ? old.customDirectories : [];
  }
  if (isPlainObject(out.retry) && "maxDelayMs" in out.retry) {
    const { maxDelayMs, ...retry } = out.retry;
    const provider = isPlainObject(retry.provider) ? retry.provider : {};
    out.retry = { ...retry, provider: { maxRetryDelayMs: maxDelayMs, ...provider } };
  }
  return out;
}

/** Reads one settings file: `{}` when absent; undefined (with a diagnostic) when unusable. */
export function readSettingsFile(path: string, diagnostics: SettingsDiagnostic[]): Settings | undefined {
  if (!existsSync(path)) return {};
  let raw: unknown;
  try {
    raw = parseJsonc(readFileSync(path, "utf8"));
  } catch (error) {
    const where = error instanceof JsoncError ? error.message : (error as Error).message;
    diagnostics.push({ path, message: `${path}: not valid JSON: ${where}; its settings are ignored for this run` });
    return undefined;
  }
  if (!isPlainObject(raw)) {
    diagnostics.push({ path, message: `${path}: expected a JSON object; its settings are ignored for this run` });
    return undefined;
  }
  const result = v.safeParse(SettingsSchema, migrateSettings(raw));
  if (!result.success) {
    const issue = result.issues[0]!;
    const key = v.getDotPath(issue) ?? "(top level)";
    diagnostics.push({
      path,
      message: `${path}: "${key}": ${issue.message}; its settings are ignored for this run`,
    });
    return undefined;
  }
  return result.output;
}

/** Project settings over global ones: nested objects merge one level, everything else replaces. */
export function mergeSettings(global: Settings, project: Settings): Settings {
  const out: Json = { ...global };
  for (const [key, value] of Object.entries(project)) {
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  return out as Settings;
}

export interface LoadedSettings {
  settings: Settings;
  global: Settings;
  project: Settings;
  diagnostics: SettingsDiagnostic[];
}

export function loadSettings(agentDir: string, cwd: string, includeProject: boolean): LoadedSettings {
  const diagnostics: SettingsDiagnostic[] = [];
  const global = readSettingsFile(join(agentDir, "settings.json"), diagnostics) ?? {};
  const project = includeProject ? (readSettingsFile(join(cwd, ".pig", "settings.json"), diagnostics) ?? {}) : {};
  return { settings: mergeSettings(global, project), global, project, diagnostics };
}

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  provider: { timeoutMs?: number; maxRetries?: number; maxRetryDelayMs: number };
}

export function retrySettings(settings: Settings): RetrySettings {
  const retry = settings.retry ?? {};
  return {
    enabled: retry.enabled ?? true,
    maxRetries: retry.maxRetries ?? 3,
    baseDelayMs: retry.baseDelayMs ?? 2000,
    provider: {
      ...(retry.provider?.timeoutMs !== undefined ? { timeoutMs: retry.provider.timeoutMs } : {}),
      ...(retry.provider?.maxRetries !== undefined ? { maxRetries: retry.provider.maxRetries } : {}),
      maxRetryDelayMs: retry.provider?.maxRetryDelayMs ?? 60_000,
    },
  };
}
