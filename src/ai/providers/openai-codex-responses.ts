/**
 * The ChatGPT Codex endpoint (`openai-codex-responses`, provider `openai-codex`): the Responses
 * API for ChatGPT subscribers, over plain fetch and server-sent events. The request is built by
 * openai-codex-request.ts, the events are read by openai-responses-events.ts after the mapping
 * below, errors are worded by openai-codex-errors.ts.
 *
 * The credential (`apiKey`) is the sign-in's OAuth access token; the account it names is sent
 * along (openai-codex-account.ts). The body goes zstd-compressed, as upstream Pi and the Codex
 * client send it. Upstream Pi tries a WebSocket first and falls back to this transport; pig
 * speaks only this one (docs/decisions.md).
 *
 * Codex-specific events: `response.done` ends a response like `response.completed`; an `error`
 * or `response.failed` event ends the stream with the server's message; a status the Responses
 * API does not define is treated as absent.
 */
import * as v from "valibot";
import { iterateSse, SseLimitError, type SseEvent } from "../sse.ts";
import { connectionErrorMessage } from "../connection-error.ts";
import { retryAfterMs } from "../retry-after.ts";
import { ResponseWatch } from "../response-watch.ts";
import { sleep } from "../../util/wait.ts";
import {
  doneEvent,
  newAssistantMessage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type InvalidArguments,
  type LlmContext,
  type Model,
  type StreamFunction,
  type StreamOptions,
  type Usage,
} from "../types.ts";
import { finalHeaders, finalPayload, headerRecord, presentHeaders } from "./request-hooks.ts";
import { StreamFailure } from "./anthropic-errors.ts";
import { codexAccountId, CodexTokenError } from "./openai-codex-account.ts";
import { buildCodexRequest } from "./openai-codex-request.ts";
import { codexEventError, codexFailedResponseError, codexHttpFailure, CodexStreamError } from "./openai-codex-errors.ts";
import { responsesEvents } from "./openai-responses-events.ts";

type Json = Record<string, unknown>;

const ABORTED = "Request was aborted";
/** Upstream's compression level for Codex request bodies. */
const ZSTD_LEVEL = 3;
const STATUSES = new Set(["completed", "incomplete", "failed", "cancelled", "queued", "in_progress"]);
const EventSchema = v.looseObject({ type: v.string() });

/** A service tier's price factor, as upstream applies it to Codex usage. */
function serviceTierFactor(model: Model, tier: unknown): number {
  if (tier === "flex") return 0.5;
  if (tier === "priority") return model.id === "gpt-5.5" ? 2.5 : 2;
  return 1;
}

function priceServiceTier(model: Model): (usage: Usage, response: Json) => void {
  return (usage, response) => {
    const factor = serviceTierFactor(model, response.service_tier);
    if (factor === 1) return;
    usage.cost.input *= factor;
    usage.cost.output *= factor;
    usage.cost.cacheRead *= factor;
    usage.cost.cacheWrite *= factor;
    usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  };
}

/**
 * The Codex stream's events as the Responses reader takes them; ends at the first final response
 * event. A connection lost mid-body reads "terminated", as upstream reports it under Node.
 */
export async function* codexEvents(sse: AsyncIterator<SseEvent>, provider: string): AsyncGenerator<Json> {
  for (;;) {
    let next: IteratorResult<SseEvent>;
    try {
      next = await sse.next();
    } catch (error) {
      if (error instanceof SseLimitError) throw new Error(`Malformed event stream from ${provider}: ${error.message}`);
      throw new Error("terminated", { cause: error });
    }
    if (next.done) return;
    const data = next.value.data.trim();
    if (!data || data === "[DONE]") continue;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (error) {
      throw new CodexStreamError(`Invalid Codex SSE JSON: ${(error as Error).message}`);
    }
    const parsed = v.safeParse(EventSchema, json);
    if (!parsed.success) continue;
    const event = parsed.output as Json & { type: string };
    if (event.type === "error") throw codexEventError(event);
    if (event.type === "response.failed") throw codexFailedResponseError(event);
    if (event.type === "response.done" || event.type === "response.completed" || event.type === "response.incomplete") {
      const response = event.response as Json | undefined;
      const status = typeof response?.status === "string" && STATUSES.has(response.status) ? response.status : undefined;
      yield { ...event, type: "response.completed", ...(response ? { response: { ...response, status } } : {}) };
      await sse.return?.(undefined);
      return;
    }
    yield event;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}

function retryable(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

interface Send {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | string;
}

/**
 * One request, tried again up to `maxRetries` times (0 by default: pig's own retry loop handles
 * failures) after a dropped connection or a retryable status, waiting what the server asks or
 * 1 s doubling. `timeoutMs` bounds the wait for the response headers.
 */
async function send(request: Send, model: Model, options: StreamOptions, controller: AbortController, watch: ResponseWatch): Promise<Response> {
  const retries = Math.max(0, options.maxRetries ?? 0);
  for (let attempt = 0; ; attempt++) {
    let timedOut = false;
    const timer =
      options.timeoutMs !== undefined && options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs)
        : undefined;
    let response: Response | undefined;
    let failure: Error | undefined;
    try {
      response = await watch.fetch(request.url, { method: "POST", headers: request.headers, body: request.body, signal: controller.signal });
    } catch (error) {
      if (options.signal?.aborted) throw new Error(ABORTED);
      failure = new Error(timedOut ? `Codex response headers timed out after ${options.timeoutMs}ms` : connectionErrorMessage(error), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (response) await options.onResponse?.({ status: response.status, headers: headerRecord(response.headers) });
    if (response?.ok) return response;
    const canRetry = attempt < retries && !timedOut && (failure !== undefined || retryable(response!.status));
    if (!canRetry) throw failure ?? (await codexHttpFailure(response!, model.provider, options.maxRetryDelayMs));
    const requested = response ? retryAfterMs(response.headers) : undefined;
    const cap = options.maxRetryDelayMs ?? 0;
    if (requested !== undefined && cap > 0 && requested > cap) throw await codexHttpFailure(response!, model.provider, options.maxRetryDelayMs);
    await response?.body?.cancel().catch(() => undefined);
    await sleep(requested ?? 1000 * 2 ** attempt, options.signal);
    if (options.signal?.aborted) throw new Error(ABORTED);
  }
}

async function* streamCodex(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const userSignal = options.signal;
  const controller = new AbortController();
  const onAbort = () => controller.abort(userSignal?.reason);
  userSignal?.addEventListener("abort", onAbort, { once: true });
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider);
  let sse: AsyncGenerator<SseEvent> | undefined;
  let events: AsyncGenerator<Json> | undefined;
  try {
    if (userSignal?.aborted) throw new Error(ABORTED);
    if (!options.apiKey) throw new CodexTokenError(`No ChatGPT sign-in for ${model.provider}: run /login ${model.provider}`);
    const accountId = codexAccountId(options.apiKey, model.provider);
    const request = buildCodexRequest(model, context, options, accountId);
    const body = JSON.stringify(await finalPayload(request.body, options));
    const headers = presentHeaders(await finalHeaders(request.headers, options));
    headers["content-encoding"] = "zstd";
    const compressed = Bun.zstdCompressSync(body, { level: ZSTD_LEVEL });
    const response = await send({ url: request.url, headers, body: new Uint8Array(compressed) }, model, options, controller, watch);
    if (!response.body) throw new Error("No response body");

    yield { type: "start", partial: output };
    sse = iterateSse(response.body);
    events = codexEvents(sse, model.provider);
    const invalidArguments: InvalidArguments[] = [];
    const finished = yield* responsesEvents(events, { model, output, watch, invalidArguments, adjustUsage: priceServiceTier(model) });
    if (userSignal?.aborted) throw new Error(ABORTED);
    if (!finished) throw new Error("Codex stream ended without a stop reason");
    if (output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
    yield doneEvent(output.stopReason as "stop" | "length" | "toolUse", output, invalidArguments);
  } catch (error) {
    for (const block of output.content) delete (block as { partialJson?: string }).partialJson;
    const aborted = userSignal?.aborted === true;
    output.stopReason = aborted ? "aborted" : "error";
    output.errorMessage = aborted ? ABORTED : (watch.failure?.message ?? errorText(error));
    const failure = error instanceof StreamFailure ? error : undefined;
    yield {
      type: "error",
      reason: aborted ? "aborted" : "error",
      error: output,
      ...(failure?.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      ...(failure?.retryDelayTooLong ? { retryDelayTooLong: true } : {}),
    };
  } finally {
    userSignal?.removeEventListener("abort", onAbort);
    if (events) await events.return(undefined).catch(() => {});
    if (sse) await sse.return(undefined).catch(() => {});
    controller.abort();
  }
}

/** Streams one Codex answer. Never throws; always ends with `done` or `error`. */
export const streamOpenAICodexResponses: StreamFunction = (model, context, options) => streamCodex(model, context, options);
