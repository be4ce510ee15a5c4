/**
 * The Anthropic Messages API (`POST <baseUrl>/v1/messages`, streamed as server-sent events),
 * over plain fetch, producing the request upstream Pi 0.87.1 sends (checked against its recorded
 * requests, test/ai/anthropic-messages-requests.test.ts) and the events and assistant message it
 * builds from the answer.
 *
 * Request (as upstream): headers `x-api-key`, `anthropic-version: 2023-06-01`,
 * `anthropic-dangerous-direct-browser-access: true`, `accept` and `content-type` JSON, a user
 * agent (`pig (…)`), and `anthropic-beta` with what the request uses (interleaved thinking while
 * a budget model thinks, the placeholder tool of models that take tool changes mid-conversation,
 * fallback models); model and caller headers override these. Body keys in the order `model,
 * messages, max_tokens, stream, system, temperature, tools, thinking, output_config, fallbacks`.
 * Prompt caching marks the system block, the last tool and the last block of a final user
 * message with `cache_control: {type: "ephemeral"}`. A Claude subscription (OAuth) token is sent
 * as a bearer token and the request identifies as Claude Code (see `anthropic-oauth.ts`).
 *
 * Thinking: models with adaptive thinking (`compat.forceAdaptiveThinking`) get `{type: "adaptive"}`
 * and an `output_config.effort`; the others a token budget (see `anthropicThinkingBudget`). A
 * reasoning model with thinking off is sent `{type: "disabled"}`, unless it cannot turn it off.
 *
 * Errors end the stream with an `error` event whose message reads like upstream's (the Anthropic
 * SDK's wording): `<status> <JSON body>` for HTTP errors, the raw data of an in-stream `error`
 * event, "terminated" for a connection lost mid-stream, "Connection error." (with the network's
 * reason) and "Request timed out." before an answer; faults the response watch diagnosed (a
 * stall, an HTML page) in its words. There are no retries here; the agent retries.
 */
import { iterateSse, type SseEvent } from "../sse.ts";
import { observed, sseData } from "../stream-observer.ts";
import {
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type Model,
  type StreamFunction,
} from "../types.ts";
import { isCredentialHeader } from "../credential-headers.ts";
import { ResponseWatch } from "../response-watch.ts";
import { finalHeaders, finalPayload, presentHeaders } from "./request-hooks.ts";
import { httpFailure } from "./anthropic-errors.ts";
import { isOAuthToken } from "./anthropic-oauth.ts";
import { buildAnthropicRequest, midConversationEffort, type AnthropicStreamOptions } from "./anthropic-request.ts";
import { anthropicMessageEvents } from "./anthropic-stream.ts";
import { DEFAULT_HEADERS_TIMEOUT_MS, postWithRetries, sdkBackoffMs, sdkRetryableStatus } from "./retrying-post.ts";
import { ABORTED_MESSAGE, closeQuietly, failureEvent, StreamAbort } from "./stream-failure.ts";

export {
  convertAnthropicMessages,
  convertAnthropicTools,
  normalizeAnthropicToolCallId,
  prepareMessages,
  stripLoneSurrogates,
} from "./anthropic-convert.ts";
export { httpErrorMessage } from "./anthropic-errors.ts";
export { isOAuthToken } from "./anthropic-oauth.ts";
export {
  ANTHROPIC_VERSION,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_THINKING_BUDGETS,
  FINE_GRAINED_TOOL_STREAMING_BETA,
  INTERLEAVED_THINKING_BETA,
  adaptiveEffort,
  anthropicThinkingBudget,
  buildAnthropicRequest,
  defaultMaxTokens,
  supportsAdaptiveThinking,
  type AnthropicStreamOptions,
  type BudgetLevel,
  type CacheRetention,
  type ThinkingBudgets,
} from "./anthropic-request.ts";
export { mapStopReason } from "./anthropic-stream.ts";
export type {
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicRequest,
  AnthropicRequestBody,
  AnthropicTool,
  CacheControl,
} from "./anthropic-wire.ts";

/** The Anthropic SDK's default request timeout (until the response headers arrive). */
export const DEFAULT_TIMEOUT_MS = DEFAULT_HEADERS_TIMEOUT_MS;
export { ABORTED_MESSAGE };

/**
 * Streams the answer. Events carry `output` itself as `partial` (upstream does the same; take a
 * copy to keep a snapshot). Exactly one `done` or `error` ends the stream; nothing throws.
 */
export const streamAnthropicMessages: StreamFunction = (model, context, options) =>
  streamMessages(model, context, options as AnthropicStreamOptions);

async function* streamMessages(
  model: Model,
  context: LlmContext,
  options: AnthropicStreamOptions,
): AsyncGenerator<AssistantMessageEvent> {
  const { usage, stopReason: _unset, timestamp, ...head } = newAssistantMessage(model);
  // Pi's key order: the effort sits between the model and the usage.
  const effort = midConversationEffort(model, options.reasoning);
  const output: AssistantMessage = { ...head, ...(effort ? { providerThinkingLevel: effort } : {}), usage, stopReason: "pending", timestamp };
  const userSignal = options.signal;
  const abort = new StreamAbort(userSignal);
  let events: AsyncGenerator<SseEvent> | undefined;
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (!options.apiKey && !carriesCredential(options.headers)) throw new Error(`No API key for provider: ${model.provider}`);
    const request = buildAnthropicRequest(model, context, options);
    const oauth = isOAuthToken(options.apiKey);

    const response = await send(request, options, abort.controller, watch);
    if (!response.body) throw new Error("Attempted to iterate over an Anthropic response with no body");

    yield { type: "start", partial: output };
    events = observed(iterateSse(response.body), options.onStreamEvent, sseData);
    const invalidArguments: InvalidArguments[] = [];
    yield* anthropicMessageEvents(events, model, context, output, oauth, userSignal, invalidArguments, () => watch.progress());
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "pending") throw new Error("Anthropic stream ended without a stop reason");
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error("An unknown error occurred");
    yield doneEvent(output.stopReason, output, invalidArguments);
  } catch (error) {
    yield failureEvent(output, error, { signal: userSignal, watch });
  } finally {
    await closeQuietly(events);
    abort.release();
  }
}

/** Whether a caller's header authenticates the request instead of the key (Copilot's bearer token, AI Gateway's key). */
function carriesCredential(headers: Record<string, string> | undefined): boolean {
  return Object.entries(headers ?? {}).some(([name, value]) => value !== "" && isCredentialHeader(name, value, undefined));
}

/**
 * One request, tried again up to `retry.provider.maxRetries` times (0 by default: pig's own
 * retry loop handles failures) on a dropped connection or a retryable status, after the delay
 * the server asks for or an exponential one (0.5 s doubling, at most 8 s), as the SDK does.
 */
async function send(
  request: ReturnType<typeof buildAnthropicRequest>,
  options: AnthropicStreamOptions,
  controller: AbortController,
  watch: ResponseWatch,
): Promise<Response> {
  const headers = presentHeaders(await finalHeaders(request.headers, options));
  const body = JSON.stringify(await finalPayload(request.body, options));
  return postWithRetries(request.url, { headers, body }, options, controller, watch, {
    retries: Math.max(0, options.maxRetries ?? 0),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    timeoutMessage: "Request timed out.",
    retryableStatus: sdkRetryableStatus,
    backoffMs: sdkBackoffMs,
    httpFailure: (response) => httpFailure(response, options.maxRetryDelayMs),
  });
}
