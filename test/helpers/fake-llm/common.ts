/**
 * What the three wire formats share: the normalised answer ("plan") built from a script
 * response, chunking, server-made ids, default usage and provider-shaped error bodies.
 */
import { azureErrorBody } from "./azure.ts";
import type { ScriptError, ScriptResponse } from "./script.ts";

export type Api = "chat" | "anthropic" | "responses" | "google" | "codex" | "bedrock" | "mistral" | "pi-messages" | "azure";

export interface PlannedToolCall {
  /** From the script, or undefined: each API then makes its own (`call_…`, `toolu_…`). */
  id: string | undefined;
  name: string;
  /** The exact argument text that goes on the wire. */
  args: string;
}

export interface Usage {
  prompt: number;
  completion: number;
  cached: number;
}

export interface Plan {
  model: string;
  text: string;
  thinking: string;
  reasoningField: "reasoning_content" | "reasoning" | "reasoning_text";
  toolCalls: PlannedToolCall[];
  finishReason: string;
  usage: Usage;
  chunkSize: number;
  midStreamError: string | undefined;
}

/** Splits into pieces of `size` UTF-16 code units, so an astral character may be cut in two. */
export function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Ids like the recorded server's: prefix + Date.now() in base 36 + a per-server counter
 * (`chatcmpl-fake-mx2xk11v1`, `rs_mx2xl2m22`). The counter keeps ids unique within one
 * millisecond and makes them increase across a session.
 */
export class IdMaker {
  private counter = 0;
  next(prefix: string): string {
    this.counter += 1;
    return `${prefix}${Date.now().toString(36)}${this.counter}`;
  }
}

function field(body: unknown, key: string): unknown {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[key]
    : undefined;
}

export function bodyString(body: unknown, key: string): string | undefined {
  const value = field(body, key);
  return typeof value === "string" ? value : undefined;
}

export function bodyNumber(body: unknown, key: string): number | undefined {
  const value = field(body, key);
  return typeof value === "number" ? value : undefined;
}

export function bodyObject(body: unknown, key: string): unknown {
  return field(body, key);
}

/**
 * Default usage as the recorded fixtures show it: prompt = ceil(raw body length / 4);
 * completion = ceil(length of thinking + text + tool names + argument texts / 4), at least 1.
 * (01: a 5549-byte body gave 1388 input tokens; 02: "write" + its arguments count too.)
 */
export function makePlan(response: ScriptResponse, rawBody: string, body: unknown, chunkSize: number): Plan {
  const toolCalls = (response.toolCalls ?? []).map((call) => ({
    id: call.id,
    name: call.name,
    args: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const text = response.text ?? "";
  const thinking = response.thinking ?? "";
  const outputLength =
    text.length + thinking.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.args.length, 0);
  return {
    model: bodyString(body, "model") ?? "fake-model",
    text,
    thinking,
    reasoningField: response.reasoningField ?? "reasoning_content",
    toolCalls,
    finishReason: response.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: {
      prompt: response.usage?.prompt_tokens ?? Math.ceil(rawBody.length / 4),
      completion: response.usage?.completion_tokens ?? Math.max(1, Math.ceil(outputLength / 4)),
      cached: response.usage?.cached_tokens ?? 0,
    },
    chunkSize,
    midStreamError: response.midStreamError,
  };
}

/** A JSON error body in the provider's shape, with the README's default types by status. */
export function errorBody(api: Api, error: ScriptError): unknown {
  if (api === "azure") return azureErrorBody(error);
  if (api === "anthropic") {
    const type =
      error.type ??
      (error.status === 429
        ? "rate_limit_error"
        : error.status === 529
          ? "overloaded_error"
          : error.status >= 500
            ? "api_error"
            : "invalid_request_error");
    return { type: "error", error: { type, message: error.message } };
  }
  if (api === "mistral") return mistralErrorBody(error);
  if (api === "pi-messages") return { error: { message: error.message, code: error.code ?? (error.status === 429 ? "rate_limited" : "request_failed") } };
  const type =
    error.type ??
    (error.status === 429 ? "rate_limit_error" : error.status >= 500 ? "server_error" : "invalid_request_error");
  const code = error.code !== undefined ? error.code : error.status === 429 ? "rate_limit_exceeded" : null;
  return { error: { message: error.message, type, param: null, code } };
}

/** Mistral's error answers: `{object: "error", message, type, param, code}`. */
function mistralErrorBody(error: ScriptError): unknown {
  const type = error.type ?? (error.status === 429 ? "rate_limited" : error.status >= 500 ? "internal_server_error" : "invalid_request_error");
  return { object: "error", message: error.message, type, param: null, code: error.code ?? null };
}

/** One SSE frame with only a `data:` line (Chat Completions). */
export function dataFrame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** One SSE frame with `event:` and `data:` lines (Anthropic, Responses). */
export function eventFrame(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
