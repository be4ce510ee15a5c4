/**
 * Which streaming implementation serves a model's API. Each provider is loaded the first time
 * it is used, so a run pays only for the client it talks to (the OpenAI SDK is large).
 */
import type { Api, AssistantMessageEvent, LlmContext, Model, StreamFunction, StreamOptions } from "./types.ts";

const LOADERS: Record<Api, () => Promise<StreamFunction>> = {
  "openai-completions": async () => (await import("./providers/openai-completions.ts")).streamOpenAICompletions,
  "openai-responses": async () => (await import("./providers/openai-responses.ts")).streamOpenAIResponses,
  "anthropic-messages": async () => (await import("./providers/anthropic-messages.ts")).streamAnthropicMessages,
};

const loaded = new Map<Api, StreamFunction>();

async function* lazyStream(model: Model, context: LlmContext, options: StreamOptions): AsyncIterable<AssistantMessageEvent> {
  let stream = loaded.get(model.api);
  if (!stream) {
    stream = await LOADERS[model.api]();
    loaded.set(model.api, stream);
  }
  yield* stream(model, context, options);
}

export function streamFor(_model: Model): StreamFunction {
  return lazyStream;
}
