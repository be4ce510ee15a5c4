/**
 * Which streaming implementation serves a model's API. Each provider is loaded the first time
 * it is used, so a run pays only for the client it talks to (the OpenAI SDK is large). An API an
 * extension registered (`registerProvider` with `streamSimple`) is looked up through `custom`,
 * which comes first: an extension may also take over one of pig's APIs, as upstream allows.
 */
import type { ProviderRequest } from "./providers/provider-request.ts";
import { APIS, newAssistantMessage, type Api, type AssistantMessageEvent, type LlmContext, type Model, type StreamFunction, type StreamOptions } from "./types.ts";

const LOADERS: Record<Api, () => Promise<StreamFunction>> = {
  "openai-completions": async () => (await import("./providers/openai-completions.ts")).streamOpenAICompletions,
  "openai-responses": async () => (await import("./providers/openai-responses.ts")).streamOpenAIResponses,
  "anthropic-messages": async () => (await import("./providers/anthropic-messages.ts")).streamAnthropicMessages,
  "google-generative-ai": async () => (await import("./providers/google-generative-ai.ts")).streamGoogleGenerativeAI,
  "google-vertex": async () => (await import("./providers/google-vertex.ts")).streamGoogleVertex,
  "openai-codex-responses": async () => (await import("./providers/openai-codex-responses.ts")).streamOpenAICodexResponses,
  "bedrock-converse-stream": async () => (await import("./providers/bedrock-converse.ts")).streamBedrockConverse,
  "mistral-conversations": async () => (await import("./providers/mistral-conversations.ts")).streamMistralConversations,
  "pi-messages": async () => (await import("./providers/pi-messages.ts")).streamPiMessages,
  "azure-openai-responses": async () => (await import("./providers/azure-openai-responses.ts")).streamAzureOpenAIResponses,
};

const loading = new Map<Api, Promise<StreamFunction>>();

/** The implementation of `api`, imported the first time it is asked for. */
function loadStream(api: Api): Promise<StreamFunction> {
  let stream = loading.get(api);
  if (!stream) {
    stream = LOADERS[api]();
    // A failed import is tried again by the next request, as before it was remembered.
    stream.catch(() => loading.delete(api));
    loading.set(api, stream);
  }
  return stream;
}

/**
 * Imports the implementation of `api` now, for a caller that has time to spare before the first
 * request (pig waiting for its extensions to load): that request then does not wait for it.
 */
export function preloadStream(api: string): void {
  if (isBuiltinApi(api)) loadStream(api).catch(() => {});
}

/** The providers providers/provider-request.ts adjusts (its COPILOT_PROVIDER and Cloudflare's two). */
export const PROVIDERS_WITH_EXTRAS: ReadonlySet<string> = new Set(["github-copilot", "cloudflare-workers-ai", "cloudflare-ai-gateway"]);

function errorEnd(model: Model, message: string): AssistantMessageEvent {
  const error = newAssistantMessage(model);
  error.stopReason = "error";
  error.errorMessage = message;
  return { type: "error", reason: "error", error };
}

function isBuiltinApi(api: string): api is Api {
  return (APIS as readonly string[]).includes(api);
}

async function* lazyStream(model: Model, context: LlmContext, options: StreamOptions): AsyncIterable<AssistantMessageEvent> {
  const api = model.api;
  if (!isBuiltinApi(api)) {
    // A stream never throws: a model whose API nobody serves (its extension went away) ends in an error.
    yield errorEnd(model, `No API implementation for "${api}" (provider ${model.provider})`);
    return;
  }
  let prepared: ProviderRequest = { model, options };
  try {
    // Only Copilot and Cloudflare need more than their wire API: the rest never load it.
    if (PROVIDERS_WITH_EXTRAS.has(model.provider)) {
      prepared = (await import("./providers/provider-request.ts")).prepareProviderRequest(model, context, options);
    }
  } catch (failure) {
    yield errorEnd(model, (failure as Error).message);
    return;
  }
  const stream = await loadStream(api);
  yield* stream(prepared.model, context, prepared.options);
}

export function streamFor(model: Model, custom?: (api: string) => StreamFunction | undefined): StreamFunction {
  return custom?.(model.api) ?? lazyStream;
}
