/**
 * The request of Pi's own message protocol (`pi-messages`, spoken by the Radius gateway): one
 * POST of `{model, context, options}` to `<baseUrl>/messages`. `context` is Pi's transcript as
 * it is: the system message declaring the prompt sections and tools first, then the messages in
 * their stored form. `options` holds only what is set: `temperature`, `maxTokens`, `reasoning`
 * (the thinking level, none when off), `cacheRetention` (`PI_CACHE_RETENTION=long`) and
 * `sessionId`. Pure.
 */
import type { LlmContext, LlmSystemMessage, Model, StreamOptions } from "../types.ts";

type Json = Record<string, unknown>;

export interface PiMessagesRequest {
  url: string;
  headers: Record<string, string>;
  body: { model: string; context: { messages: unknown[] }; options: Json };
}

export function piMessagesUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/messages`;
}

/**
 * The system message to send: the transcript's own, or, when the prompt does not come from the
 * transcript (an extension set it for this run), one declaring that prompt and the tools.
 */
function systemMessage(context: LlmContext): LlmSystemMessage | undefined {
  if (context.system) {
    // Pi's key order: the tool declarations come last.
    const { role, content, sections, timestamp, toolsAdded, ...rest } = context.system;
    return { role, content, ...(sections ? { sections } : {}), timestamp, ...(toolsAdded ? { toolsAdded } : {}), ...rest };
  }
  const tools = context.tools ?? [];
  if (!context.systemPrompt && tools.length === 0) return undefined;
  return { role: "system", content: context.systemPrompt, timestamp: context.messages[0]?.timestamp ?? 0, ...(tools.length > 0 ? { toolsAdded: tools.map((tool) => ({ ...tool })) } : {}) };
}

/** Sets `key` only when `value` is defined: the body carries no empty options. */
function put(target: Json, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

export function buildPiMessagesRequest(model: Model, context: LlmContext, options: StreamOptions, env: NodeJS.ProcessEnv = process.env): PiMessagesRequest {
  const system = systemMessage(context);
  const requestOptions: Json = {};
  put(requestOptions, "temperature", options.temperature);
  put(requestOptions, "maxTokens", options.maxTokens);
  put(requestOptions, "reasoning", options.reasoning === "off" ? undefined : options.reasoning);
  put(requestOptions, "cacheRetention", env.PI_CACHE_RETENTION === "long" ? "long" : undefined);
  put(requestOptions, "sessionId", options.sessionId);
  return {
    url: piMessagesUrl(model.baseUrl),
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      accept: "text/event-stream",
      "content-type": "application/json",
      ...model.headers,
      ...options.headers,
    },
    body: { model: model.id, context: { messages: system ? [system, ...context.messages] : [...context.messages] }, options: requestOptions },
  };
}
