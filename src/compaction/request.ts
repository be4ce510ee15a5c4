/**
 * One summarisation request: the summariser system prompt, one user message, no tools. The
 * streamed answer is drained and reduced to its text, a failure message, or "aborted".
 */
import type { LlmAssistantMessage, Model, StreamFunction, StreamOptions, ThinkingLevel } from "../ai/types.ts";
import { isRetryableError } from "../ai/errors.ts";
import { retryDelay, sleep } from "../util/wait.ts";
import { SUMMARIZER_SYSTEM_PROMPT } from "./prompts.ts";

/** Provider knobs a caller may pass through (pig's `retry.provider` settings). */
export type ProviderOptions = Pick<StreamOptions, "maxRetries" | "timeoutMs" | "maxRetryDelayMs" | "idleTimeoutMs">;

/** Retrying a summary that failed for a passing reason (the `retry` settings). */
export interface SummaryRetry {
  maxRetries: number;
  baseDelayMs: number;
  /** A server-requested delay above this fails at once. */
  maxDelayMs?: number;
  /** Told about each retry: scheduled (before the wait), started (after it), and the end of retrying. */
  events?: SummaryRetryEvents | undefined;
}

/** What a retrying summary request reports (upstream's `summarization_retry_*` events). */
export interface SummaryRetryEvents {
  scheduled(attempt: number, maxAttempts: number, delayMs: number, errorMessage: string): void;
  attemptStart(): void;
  /** Once, after a retry was scheduled: the request succeeded, failed for good, or was stopped. */
  finished(): void;
}

export interface SummaryCall {
  model: Model;
  stream: StreamFunction;
  apiKey: string;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  providerOptions?: ProviderOptions | undefined;
  retry?: SummaryRetry | undefined;
}

export type SummaryResponse =
  | { kind: "text"; text: string }
  | { kind: "error"; message: string | undefined }
  | { kind: "aborted" };

/**
 * The reasoning level a summary asks for: the session's level on a reasoning model, none when
 * thinking is off or the model cannot reason.
 */
export function summaryReasoning(model: Model, thinkingLevel: ThinkingLevel | undefined): ThinkingLevel | undefined {
  return model.reasoning && thinkingLevel && thinkingLevel !== "off" ? thinkingLevel : undefined;
}

function textOf(message: LlmAssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * Sends `userText` to the summariser and waits for the whole answer, retrying failures that may
 * pass (rate limits, overloaded or unavailable servers, dropped connections) with exponential
 * backoff as `call.retry` allows. Never throws.
 */
export async function requestSummary(
  call: SummaryCall,
  request: { userText: string; maxTokens: number; reasoning?: ThinkingLevel | undefined },
): Promise<SummaryResponse> {
  const retry = call.retry;
  const finish = (attempt: number, response: SummaryResponse): SummaryResponse => {
    if (attempt > 0) retry?.events?.finished();
    return response;
  };
  for (let attempt = 0; ; attempt++) {
    const response = await requestOnce(call, request);
    if (response.kind !== "error" || !response.retryable || !retry || attempt >= retry.maxRetries) {
      return finish(attempt, response.kind === "error" ? { kind: "error", message: response.message } : response);
    }
    const wait = retryDelay(attempt + 1, retry.baseDelayMs, response.retryAfterMs);
    if (retry.maxDelayMs !== undefined && retry.maxDelayMs > 0 && wait > retry.maxDelayMs) {
      return finish(attempt, { kind: "error", message: response.message });
    }
    retry.events?.scheduled(attempt + 1, retry.maxRetries, wait, response.message ?? "Unknown error");
    if (!(await sleep(wait, call.signal))) return finish(attempt + 1, { kind: "aborted" });
    retry.events?.attemptStart();
  }
}

type AttemptResponse = Exclude<SummaryResponse, { kind: "error" }> | { kind: "error"; message: string | undefined; retryable: boolean; retryAfterMs?: number };

async function requestOnce(
  call: SummaryCall,
  request: { userText: string; maxTokens: number; reasoning?: ThinkingLevel | undefined },
): Promise<AttemptResponse> {
  const options: StreamOptions = {
    ...call.providerOptions,
    apiKey: call.apiKey,
    maxTokens: request.maxTokens,
    ...(call.headers ? { headers: call.headers } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
    ...(request.reasoning ? { reasoning: request.reasoning } : {}),
  };
  const context = {
    systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text: request.userText }], timestamp: Date.now() }],
  };
  try {
    for await (const event of call.stream(call.model, context, options)) {
      if (event.type === "done") {
        return call.signal?.aborted ? { kind: "aborted" } : { kind: "text", text: textOf(event.message) };
      }
      if (event.type === "error") {
        if (event.reason === "aborted" || call.signal?.aborted) return { kind: "aborted" };
        const retryAfterMs = (event as { retryAfterMs?: number }).retryAfterMs;
        return {
          kind: "error",
          message: event.error.errorMessage,
          retryable: isRetryableError(event.error, call.model.contextWindow),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
      }
    }
    return call.signal?.aborted ? { kind: "aborted" } : { kind: "error", message: "the stream ended without an answer", retryable: true };
  } catch (error) {
    // Stream functions should not throw; a broken one is reported like a failed answer.
    if (call.signal?.aborted) return { kind: "aborted" };
    return { kind: "error", message: error instanceof Error ? error.message : String(error), retryable: false };
  }
}
