/**
 * One summarisation request: the summariser system prompt, one user message, no tools, a fresh
 * routing session id. The streamed answer is drained and reduced to its text and usage, or to
 * why it cannot be a summary (failed, cut off at the output cap, a tool call, aborted).
 */
import type { LlmAssistantMessage, Model, StreamFunction, StreamOptions, ThinkingLevel } from "../ai/types.ts";
import { isRetryableError } from "../ai/errors.ts";
import type { Usage } from "../session/format.ts";
import { newSessionId } from "../session/ids.ts";
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
  | { kind: "text"; text: string; usage?: Usage }
  | { kind: "error"; message: string | undefined }
  /** The answer stopped at the output cap: its text is partial and never stored. */
  | { kind: "truncated" }
  /** The model called a tool instead of writing (summary requests declare none). */
  | { kind: "tool-call" }
  | { kind: "aborted" };

/**
 * Why a response cannot become a summary, in upstream's words (`label` names the request:
 * "Summarization", "Turn prefix summarization", "Branch summarization"); undefined for text.
 * An aborted response is the caller's to report.
 */
export function summaryFailure(response: SummaryResponse, label: string): string | undefined {
  switch (response.kind) {
    case "error":
      return `${label} failed: ${response.message || "Unknown error"}`;
    case "truncated":
      return `${label} failed: generation hit the token cap and the summary is incomplete`;
    case "tool-call":
      return `${label} attempted to call a tool`;
    default:
      return undefined;
  }
}

/** A summary's output budget: `share` of the reserve, never above what the model can write. */
export function summaryMaxTokens(model: Pick<Model, "maxTokens">, budget: number): number {
  return model.maxTokens > 0 ? Math.min(budget, model.maxTokens) : budget;
}

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

/** The answer a `done` event carries, as a summary response. */
function answerOf(message: LlmAssistantMessage): Exclude<SummaryResponse, { kind: "error" }> {
  if (message.stopReason === "length") return { kind: "truncated" };
  if (message.content.some((block) => block.type === "toolCall")) return { kind: "tool-call" };
  return { kind: "text", text: textOf(message), ...(message.usage ? { usage: message.usage } : {}) };
}

/**
 * Sends `userText` to the summariser and waits for the whole answer, retrying failures that may
 * pass (rate limits, overloaded or unavailable servers, dropped connections) with exponential
 * backoff as `call.retry` allows. Every attempt carries the same fresh session id: a summary is
 * routed on its own and never written to the conversation's prompt cache. Never throws.
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
  const sessionId = newSessionId();
  for (let attempt = 0; ; attempt++) {
    const response = await requestOnce(call, request, sessionId);
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
  sessionId: string,
): Promise<AttemptResponse> {
  const options: StreamOptions = {
    ...call.providerOptions,
    apiKey: call.apiKey,
    maxTokens: request.maxTokens,
    sessionId,
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
        return call.signal?.aborted ? { kind: "aborted" } : answerOf(event.message);
      }
      if (event.type === "error") {
        if (event.reason === "aborted" || call.signal?.aborted) return { kind: "aborted" };
        const retryAfterMs = (event as { retryAfterMs?: number }).retryAfterMs;
        return {
          kind: "error",
          message: event.error.errorMessage,
          retryable: isRetryableError(event.error, call.model),
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
