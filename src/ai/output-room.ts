/**
 * The output cap a request asks for, kept inside what is left of the context window (Pi ≥ 0.87):
 * the window, less the estimated size of the request, less a safety margin; 1 at the least.
 * Estimates count four characters a token, as compaction's do, and trust the usage the latest
 * answer reported for everything before it.
 */
import type { LlmContext, LlmMessage, Model } from "./types.ts";

const SAFETY_TOKENS = 4096;
const CHARS_PER_TOKEN = 4;
const IMAGE_CHARS = 4800;

function tokensOf(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function contentChars(content: LlmMessage["content"]): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const block of content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "image") chars += IMAGE_CHARS;
    else if (block.type === "thinking") chars += block.thinking.length;
    else if (block.type === "toolCall") chars += block.name.length + (JSON.stringify(block.arguments) ?? "").length;
  }
  return chars;
}

function messageTokens(message: LlmMessage): number {
  return tokensOf(contentChars(message.content));
}

/** The usage an answer reported for the context it was given, when it can be trusted. */
function reportedTokens(message: LlmMessage): number | undefined {
  if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") return undefined;
  const u = message.usage;
  const total = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
  return total > 0 ? total : undefined;
}

/** Estimated tokens of a whole request: the prompt and tool list, then the messages. */
export function estimateRequestTokens(context: LlmContext): number {
  const head = tokensOf(context.systemPrompt.length) + (context.tools && context.tools.length > 0 ? tokensOf(JSON.stringify(context.tools).length) : 0);
  // The latest answer whose usage describes the messages before it: a message inserted before it
  // later (a summary carries an older answer's successors' time) makes that usage stale.
  let latestTime = Number.NEGATIVE_INFINITY;
  let trusted: { index: number; tokens: number } | undefined;
  context.messages.forEach((message, index) => {
    const tokens = reportedTokens(message);
    if (tokens !== undefined && message.timestamp >= latestTime) trusted = { index, tokens };
    latestTime = Math.max(latestTime, message.timestamp);
  });
  if (!trusted) return head + context.messages.reduce((sum, m) => sum + messageTokens(m), 0);
  let trailing = context.promptTokensSinceAnswer ?? 0;
  for (let i = trusted.index + 1; i < context.messages.length; i++) trailing += messageTokens(context.messages[i]!);
  return trusted.tokens + trailing;
}

/** `maxTokens` lowered to the room the context window leaves (unchanged for a model without a window). */
export function fitOutputToWindow(model: Model, context: LlmContext, maxTokens: number): number {
  if (model.contextWindow <= 0) return Math.max(1, maxTokens);
  const room = model.contextWindow - estimateRequestTokens(context) - SAFETY_TOKENS;
  return Math.min(maxTokens, Math.max(1, room));
}
