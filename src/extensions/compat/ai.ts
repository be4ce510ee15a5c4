/**
 * `pi-ai` (+ `pi-ai/compat`, `pi-ai/oauth`) as extensions import it. Schema helpers and the
 * event stream are complete. Model calls go through pig's own providers: in this process with a
 * key the extension has of its own, or made by pig with pig's credentials when it has none
 * (pig strips provider keys from extension processes unless their manifest asks for them).
 */
import { findApiKey } from "../../ai/auth.ts";
import { catalogueModels, PROVIDERS } from "../../ai/catalogue/index.ts";
import { streamFor } from "../../ai/stream.ts";
import type { Model } from "../../ai/types.ts";
import { AssistantMessageEventStream, createAssistantMessageEventStream } from "./event-stream.ts";
import { streamThroughHost } from "./host-stream.ts";
import { StringEnum } from "./typebox.ts";
import { HOST_CREDENTIALS } from "../runner/host-models.ts";

export { Type } from "typebox";
export { clampThinkingLevel, supportedThinkingLevels as getSupportedThinkingLevels } from "../../ai/thinking.ts";
export { StringEnum };
export { AssistantMessageEventStream, createAssistantMessageEventStream, EventStream } from "./event-stream.ts";
export { parseStreamingJson, parseToolCallArguments, ToolCallArgumentsStream } from "./tool-call-arguments.ts";

type Json = Record<string, unknown>;

export function uuidv7(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function calculateCost(model: Json, usage: Json): Json {
  const cost = (model.cost ?? {}) as Record<string, number>;
  const n = (k: string): number => Number(usage[k] ?? 0);
  const parts = {
    input: (n("input") * (cost.input ?? 0)) / 1e6,
    output: (n("output") * (cost.output ?? 0)) / 1e6,
    cacheRead: (n("cacheRead") * (cost.cacheRead ?? 0)) / 1e6,
    cacheWrite: (n("cacheWrite") * (cost.cacheWrite ?? 0)) / 1e6,
  };
  const total = parts.input + parts.output + parts.cacheRead + parts.cacheWrite;
  usage.cost = { ...parts, total };
  return usage.cost as Json;
}

export function getProviders(): string[] {
  return PROVIDERS.map((p) => p.id);
}
export function getModels(provider: string): Model[] {
  return catalogueModels(provider).map((m) => ({ ...m }));
}
export function getModel(provider: string, id: string): Model | undefined {
  const model = catalogueModels(provider).find((m) => m.id === id);
  return model && { ...model };
}

/** The key the environment holds for `provider` (its variables, or ambient credentials), as upstream reads it. */
export function getEnvApiKey(provider: string): string | undefined {
  return findApiKey(provider, { auth: {}, env: process.env, configured: {} });
}

/**
 * Streams a model answer as an upstream-style event stream. With a key of the extension's own
 * (given, or a variable its manifest passes) pig's providers run here, in the extension's
 * process; with pig's handle (what `ctx.modelRegistry` gives) or no key at all, pig makes the
 * call with its own credentials (`model.stream`), which never reach this process.
 */
export function streamSimple(model: Model, context: Json, options?: Json): AssistantMessageEventStream {
  const given = typeof options?.apiKey === "string" && options.apiKey !== "" ? options.apiKey : undefined;
  const own = given === HOST_CREDENTIALS ? undefined : (given ?? getEnvApiKey(model.provider));
  if (!own) return streamThroughHost(model, context, options, `No API key for provider ${model?.provider} in this extension process, and no connection to pig to call the model with its credentials`);
  const out = createAssistantMessageEventStream();
  void (async () => {
    try {
      const run = streamFor(model)(model, context as never, { ...(options ?? {}), apiKey: own } as never);
      for await (const event of run) out.push(event as unknown as Json);
      out.end();
    } catch (error) {
      const message = { role: "assistant", content: [], stopReason: "error", errorMessage: error instanceof Error ? error.message : String(error), provider: model?.provider, model: model?.id };
      out.push({ type: "error", reason: "error", error: message });
    }
  })();
  return out;
}
export const stream = streamSimple;

export async function completeSimple(model: Model, context: Json, options?: Json): Promise<Json> {
  return streamSimple(model, context, options).result();
}
export const complete = completeSimple;

/** Upstream's API-provider registry: kept per process so registering and lookup agree. */
const apiProviders = new Map<string, Json>();
export function registerApiProvider(provider: Json): void {
  apiProviders.set(String(provider.api), provider);
}
export function getApiProvider(api: string): Json | undefined {
  return apiProviders.get(api);
}
export function getApiProviders(): Json[] {
  return [...apiProviders.values()];
}
export function unregisterApiProviders(): void {
  apiProviders.clear();
}

export function getCurrentSystemPrompt(context: Json): string | undefined {
  return context?.systemPrompt as string | undefined;
}
export function getCurrentTools(context: Json): unknown[] {
  return (context?.tools as unknown[]) ?? [];
}
export function collapseSystemMessages(context: Json): Json {
  return context;
}

// Upstream's built-in API implementations, by name: streaming through pig's providers.
const apiImpl = (api: string) => ({ api, stream: streamSimple, streamSimple });
export const anthropicMessagesApi = apiImpl("anthropic-messages");
export const openAIResponsesApi = apiImpl("openai-responses");
export const openAICompletionsApi = apiImpl("openai-completions");
export const azureOpenAIResponsesApi = apiImpl("azure-openai-responses");
export const streamSimpleAzureOpenAIResponses = streamSimple;
export const streamAzureOpenAIResponses = streamSimple;
export const streamSimpleAnthropic = streamSimple;
export const streamSimpleOpenAIResponses = streamSimple;
export const streamSimpleOpenAICompletions = streamSimple;
export const streamAnthropic = streamSimple;
export const streamOpenAIResponses = streamSimple;
export const streamOpenAICompletions = streamSimple;

/** Whether two models are the same model: provider and id (false when either is missing). */
export function modelsAreEqual(a: Model | null | undefined, b: Model | null | undefined): boolean {
  return !!a && !!b && a.provider === b.provider && a.id === b.id;
}
