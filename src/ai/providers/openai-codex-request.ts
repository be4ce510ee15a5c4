/**
 * The request half of the ChatGPT Codex endpoint (`openai-codex-responses`): the Responses API
 * as the ChatGPT backend serves it to subscription users, at `{baseUrl}/codex/responses`.
 * Messages are replayed as for the Responses API (openai-responses-request.ts); what differs:
 *
 * - the system prompt goes in `instructions` (never empty), not in `input`;
 * - the body always has `store: false`, `text.verbosity: "low"`, the encrypted reasoning in
 *   `include`, `tool_choice: "auto"`, `parallel_tool_calls: true`, and no output cap: the
 *   backend sets its own;
 * - tools carry `strict`: `true` with a strict schema for a tool that asks for constrained
 *   sampling, `null` otherwise (unless the model's `compat.supportsStrictMode` is false);
 * - headers: the OAuth token as bearer, `chatgpt-account-id` from it, `originator: pi` and Pi's
 *   user agent (the backend knows Pi's client), `OpenAI-Beta: responses=experimental`, and with a
 *   session the `session-id` / `x-client-request-id` headers and `prompt_cache_key`.
 */
import { arch, platform, release } from "node:os";
import { codexUrl } from "../endpoint.ts";
import { sentTool, strictToolSupport, type StrictToolSupport } from "../strict-tools.ts";
import { reasoningEffortFor } from "../thinking.ts";
import type { LlmContext, Model, StreamOptions, ToolSpec } from "../types.ts";
import { convertResponsesInput } from "./openai-responses-request.ts";

type Json = Record<string, unknown>;

export const CODEX_ORIGINATOR = "pi";
/** The longest `prompt_cache_key` OpenAI takes. */
const CACHE_KEY_MAX = 64;

export interface CodexRequest {
  url: string;
  body: Json;
  headers: Record<string, string>;
}

/** Pi's user agent, which the backend sees from Pi: `pi (<platform> <release>; <arch>)`. */
export function codexUserAgent(): string {
  return `pi (${platform()} ${release()}; ${arch()})`;
}

/** The session id as a prompt cache key, cut to the 64 characters (not UTF-16 units) OpenAI allows. */
function cacheKey(sessionId: string | undefined): string | undefined {
  if (sessionId === undefined) return undefined;
  const chars = Array.from(sessionId);
  return chars.length <= CACHE_KEY_MAX ? sessionId : chars.slice(0, CACHE_KEY_MAX).join("");
}

/** A tool; where the model takes strict tools, `strict` is `true` for a strict one (strict-tools.ts), else `null`. */
function codexTool(tool: ToolSpec, support: StrictToolSupport): Json {
  const { parameters, strict } = sentTool(tool, support);
  const out: Json = { type: "function", name: tool.name, description: tool.description, parameters };
  if (support.supported) out.strict = strict ? true : null;
  return out;
}

/** The reasoning object: the level's effort with summaries, or the model's "off" value. */
function reasoning(model: Model, options: StreamOptions): Json | undefined {
  const level = options.reasoning;
  if (level !== undefined && level !== "off") {
    const effort = reasoningEffortFor(model, level);
    return effort === undefined ? undefined : { effort, summary: "auto" };
  }
  if (!model.reasoning) return undefined;
  const off = model.thinkingLevelMap?.off;
  return off === null ? undefined : { effort: off ?? "none" };
}

/** The request body, in Pi's key order. Pure. */
export function buildCodexBody(model: Model, context: LlmContext, options: StreamOptions): Json {
  const strictSupport = strictToolSupport(model, "openai-codex-responses");
  const key = cacheKey(options.sessionId);
  const body: Json = {
    model: model.id,
    store: false,
    stream: true,
    instructions: context.systemPrompt || "You are a helpful assistant.",
    input: convertResponsesInput(model, { ...context, systemPrompt: "" }, "inline"),
    text: { verbosity: "low" },
    include: ["reasoning.encrypted_content"],
    ...(key !== undefined ? { prompt_cache_key: key } : {}),
    tool_choice: "auto",
    parallel_tool_calls: true,
  };
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (context.tools && context.tools.length > 0) body.tools = context.tools.map((tool) => codexTool(tool, strictSupport));
  const effort = reasoning(model, options);
  if (effort) body.reasoning = effort;
  return body;
}

/** Sets a header, replacing one of the same name in any case. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  headers[name] = value;
}

/** The request headers; the model's and the caller's first, then the ones the backend requires. Pure. */
export function buildCodexHeaders(model: Model, options: StreamOptions, accountId: string, userAgent = codexUserAgent()): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const source of [model.headers, options.headers]) {
    for (const [name, value] of Object.entries(source ?? {})) setHeader(headers, name, value);
  }
  setHeader(headers, "Authorization", `Bearer ${options.apiKey}`);
  setHeader(headers, "chatgpt-account-id", accountId);
  setHeader(headers, "originator", CODEX_ORIGINATOR);
  setHeader(headers, "User-Agent", userAgent);
  setHeader(headers, "OpenAI-Beta", "responses=experimental");
  setHeader(headers, "accept", "text/event-stream");
  setHeader(headers, "content-type", "application/json");
  const key = cacheKey(options.sessionId);
  if (key !== undefined) {
    setHeader(headers, "session-id", key);
    setHeader(headers, "x-client-request-id", key);
  }
  return headers;
}

/** URL, body and headers of one Codex request. Pure. */
export function buildCodexRequest(model: Model, context: LlmContext, options: StreamOptions, accountId: string): CodexRequest {
  return { url: codexUrl(model.baseUrl), body: buildCodexBody(model, context, options), headers: buildCodexHeaders(model, options, accountId) };
}
