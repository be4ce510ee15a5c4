/**
 * `models.json`: custom providers and models, and changes to built-in ones. A file with a
 * mistake cannot be used as a whole, and the error names the file, the place (line, column,
 * field) and what was expected; an unknown key is a warning and the rest of the file is used.
 */
import * as v from "valibot";
import { THINKING_LEVELS } from "./message-types.ts";
import { builtOnce } from "../util/built-once.ts";
import { checkConfig, joinIssues, notObjectWords, type ConfigIssue } from "../util/config-issues.ts";
import { readConfigText } from "../util/config-read.ts";
import { JsonPlaces, parseJsonc } from "../util/jsonc.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { isCatalogueProvider } from "./catalogue/index.ts";
import { APIS, type Api, type Model, type OpenAICompat } from "./types.ts";

// Built when a models.json is there to check: a run without one never needs it.
const modelsFileSchema = builtOnce(() => {
  const positive = v.pipe(v.number(), v.check((n) => n > 0, "must be greater than 0"));
  const Headers = v.record(v.string(), v.string());
  const Cost = v.object({
    input: v.optional(v.number()),
    output: v.optional(v.number()),
    cacheRead: v.optional(v.number()),
    cacheWrite: v.optional(v.number()),
  });
  const LevelMap = v.record(v.picklist(THINKING_LEVELS), v.nullable(v.string()));
  const Compat = v.record(v.string(), v.unknown());
  const Input = v.array(v.picklist(["text", "image"]));

  // What a model entry and a built-in model's override may both set.
  const ModelFields = {
    name: v.optional(v.string()),
    reasoning: v.optional(v.boolean()),
    thinkingLevelMap: v.optional(LevelMap),
    input: v.optional(Input),
    cost: v.optional(Cost),
    contextWindow: v.optional(positive),
    maxTokens: v.optional(positive),
    headers: v.optional(Headers),
    compat: v.optional(Compat),
  };

  const ModelSchema = v.object({
    id: v.pipe(v.string(), v.minLength(1, "must not be empty")),
    api: v.optional(v.picklist(APIS)),
    baseUrl: v.optional(v.string()),
    ...ModelFields,
  });

  const OverrideSchema = v.object(ModelFields);

  const ProviderSchema = v.object({
    name: v.optional(v.string()),
    baseUrl: v.optional(v.string()),
    api: v.optional(v.picklist(APIS)),
    apiKey: v.optional(v.string()),
    headers: v.optional(Headers),
    authHeader: v.optional(v.boolean()),
    compat: v.optional(Compat),
    models: v.optional(v.array(ModelSchema)),
    modelOverrides: v.optional(v.record(v.string(), OverrideSchema)),
  });

  return v.object({ providers: v.record(v.string(), ProviderSchema) });
});
export type ModelsFile = v.InferOutput<ReturnType<typeof modelsFileSchema>>;
export type ProviderConfig = ModelsFile["providers"][string];

export class ModelsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelsFileError";
  }
}

/** Said after the error where the run goes on without the file (a listing of models). */
export const MODELS_FILE_IGNORED = "its providers and models are not used for this run (the built-in ones are)";

export interface ModelsFileRead {
  /** The checked file; undefined when there is none or it cannot be used (`error` says why). */
  file?: ModelsFile;
  /** "<path>: <what, where>", when the file cannot be used. */
  error?: string;
  /** Unknown keys: reported, and the file is used without them. */
  warnings: string[];
}

/** Reads and checks `path`, naming the file and the place of every problem. */
export function loadModelsFile(path: string): ModelsFileRead {
  const read = readConfigText(path);
  if (read.kind === "absent") return { warnings: [] };
  const fail = (what: string, warnings: string[] = []): ModelsFileRead => ({ error: `${path}: ${what}`, warnings });
  if (read.kind === "unreadable") return fail(read.reason);
  let raw: unknown;
  try {
    raw = parseJsonc(read.text);
  } catch (error) {
    return fail(`not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(raw)) return fail(`expected a JSON object ({"providers": {…}}) at the top level, not ${notObjectWords(raw)}`);
  const checked = checkConfig(modelsFileSchema(), raw, read.text);
  const warnings = checked.unknownKeys.map((words) => `${path}: ${words}; pig ignores it`);
  if (!checked.success) return fail(joinIssues(checked.issues), warnings);
  const broken = providerRuleIssues(checked.output, new JsonPlaces(read.text));
  if (broken.length > 0) return fail(joinIssues(broken), warnings);
  return { file: checked.output, warnings };
}

/**
 * What the schema cannot say about a provider: a custom one needs a URL, a key and an API for
 * each model, and an entry must change something. Each names the field and its place.
 */
function providerRuleIssues(file: ModelsFile, places: JsonPlaces): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const at = (keys: (string | number)[], words: string) => {
    const place = places.placeOf(keys);
    issues.push({ path: keys, words: `"${keys.join(".")}"${place ? ` (${place})` : ""} ${words}` });
  };
  for (const [provider, config] of Object.entries(file.providers)) {
    const key = ["providers", provider];
    if (!config.models && !config.baseUrl && !config.headers && !config.compat && !config.modelOverrides) {
      at(key, 'must set "baseUrl", "headers", "compat", "modelOverrides" or "models"');
      continue;
    }
    if (isCatalogueProvider(provider) || !config.models) continue;
    if (!config.baseUrl && config.models.some((m) => !m.baseUrl)) at([...key, "baseUrl"], "is missing (a custom provider needs the URL of its server)");
    if (!config.apiKey) at([...key, "apiKey"], 'is missing (a custom provider needs a key, or "none" for a server that takes none)');
    config.models.forEach((model, i) => {
      if (!model.api && !config.api) at([...key, "models", i, "api"], 'is missing (set "api" on the model or the provider)');
    });
  }
  return issues;
}

/** Reads and checks `path`; undefined when there is no file. Throws `ModelsFileError`. */
export function readModelsFile(path: string): ModelsFile | undefined {
  const read = loadModelsFile(path);
  if (read.error !== undefined) throw new ModelsFileError(read.error);
  return read.file;
}

/**
 * Built-in models with the file's changes applied: provider settings, overrides, and custom
 * models (added, or replacing a built-in with the same provider and id).
 */
export function applyModelsFile(builtins: readonly Model[], file: ModelsFile, path: string): Model[] {
  const models = builtins.map((m) => ({ ...m }));
  for (const [provider, config] of Object.entries(file.providers)) {
    const own = models.filter((m) => m.provider === provider);
    const builtin = own.length > 0;
    if (!config.models && !config.baseUrl && !config.headers && !config.compat && !config.modelOverrides) {
      throw new ModelsFileError(`${path}: "providers.${provider}" must set "baseUrl", "headers", "compat", "modelOverrides" or "models"`);
    }
    for (const model of own) {
      if (config.baseUrl) model.baseUrl = config.baseUrl;
      if (config.compat) model.compat = { ...model.compat, ...(config.compat as OpenAICompat) };
      const override = config.modelOverrides?.[model.id];
      if (override) applyOverride(model, override);
    }
    for (const spec of config.models ?? []) {
      const api = spec.api ?? config.api ?? (builtin ? own[0]!.api : undefined);
      const baseUrl = spec.baseUrl ?? config.baseUrl ?? (builtin ? own[0]!.baseUrl : undefined);
      if (!builtin && (!config.baseUrl && !spec.baseUrl)) {
        throw new ModelsFileError(`${path}: "providers.${provider}.baseUrl" is required for a custom provider`);
      }
      if (!builtin && !config.apiKey) {
        throw new ModelsFileError(`${path}: "providers.${provider}.apiKey" is required for a custom provider`);
      }
      if (!api) {
        throw new ModelsFileError(`${path}: model "${spec.id}" of "providers.${provider}" needs an "api", on the model or the provider`);
      }
      const model: Model = {
        id: spec.id,
        name: spec.name ?? spec.id,
        api: api as Api,
        provider,
        baseUrl: baseUrl!,
        reasoning: spec.reasoning ?? false,
        ...(spec.thinkingLevelMap ? { thinkingLevelMap: spec.thinkingLevelMap } : {}),
        input: spec.input ?? ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...spec.cost },
        contextWindow: spec.contextWindow ?? 128000,
        maxTokens: spec.maxTokens ?? 16384,
        ...(spec.headers ? { headers: spec.headers } : {}),
        ...(config.compat || spec.compat ? { compat: { ...(config.compat as OpenAICompat), ...(spec.compat as OpenAICompat) } } : {}),
      };
      const existing = models.findIndex((m) => m.provider === provider && m.id === spec.id);
      if (existing >= 0) models[existing] = model;
      else models.push(model);
    }
  }
  return models;
}

function applyOverride(model: Model, override: NonNullable<ProviderConfig["modelOverrides"]>[string]): void {
  if (override.name !== undefined) model.name = override.name;
  if (override.reasoning !== undefined) model.reasoning = override.reasoning;
  if (override.thinkingLevelMap) model.thinkingLevelMap = { ...model.thinkingLevelMap, ...override.thinkingLevelMap };
  if (override.input) model.input = override.input;
  if (override.cost) model.cost = { ...model.cost, ...override.cost };
  if (override.contextWindow) model.contextWindow = override.contextWindow;
  if (override.maxTokens) model.maxTokens = override.maxTokens;
  if (override.headers) model.headers = { ...model.headers, ...override.headers };
  if (override.compat) model.compat = { ...model.compat, ...(override.compat as OpenAICompat) };
}

