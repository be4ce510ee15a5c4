/** Which streaming implementation serves a model's API. */
import { streamAnthropicMessages } from "./providers/anthropic-messages.ts";
import { streamOpenAICompletions } from "./providers/openai-completions.ts";
import { streamOpenAIResponses } from "./providers/openai-responses.ts";
import type { Api, Model, StreamFunction } from "./types.ts";

const BY_API: Record<Api, StreamFunction> = {
  "openai-completions": streamOpenAICompletions,
  "openai-responses": streamOpenAIResponses,
  "anthropic-messages": streamAnthropicMessages,
};

export function streamFor(model: Model): StreamFunction {
  return BY_API[model.api];
}
