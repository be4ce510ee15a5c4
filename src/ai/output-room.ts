/**
 * The output cap a request asks for, kept inside what is left of the context window (Pi ≥ 0.87):
 * the window, less the estimated size of the request, less a safety margin; 1 at the least.
 * Estimates count four characters a token, as compaction's do, and trust the usage the latest
 * answer reported for everything before it.
 */
import type { LlmContext, LlmMessage, Model } from "./types.ts";
import { beginsWithSame } from "../util/same-start.ts";

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

/** Where a walk over a request's messages stands (see `latestWalk`). */
interface TokenWalk {
  /** The messages read, in order (a copy). */
  read: LlmMessage[];
  /** The newest timestamp among them. */
  latestTime: number;
  /** The latest answer whose usage describes the messages before it, and that usage. */
  trusted: { index: number; tokens: number } | undefined;
  /** Estimated tokens of the messages after `trusted` (of all of them without one). */
  after: number;
  /** Estimated tokens of every message read. */
  all: number;
}

/**
 * The walk of the latest request. A long run's next request starts with the same message objects
 * (the converted messages are kept per message): the walk goes on from where it stood instead of
 * measuring the whole context again.
 */
let latestWalk: TokenWalk | undefined;

function walkTokens(messages: readonly LlmMessage[]): TokenWalk {
  const known = latestWalk;
  const resumes = known !== undefined && beginsWithSame(messages, known.read);
  // Goes on with the kept walk itself (its `read` grows): it becomes `latestWalk` again below.
  const walk: TokenWalk = resumes ? { ...known } : { read: [], latestTime: Number.NEGATIVE_INFINITY, trusted: undefined, after: 0, all: 0 };
  for (let index = walk.read.length; index < messages.length; index++) {
    const message = messages[index]!;
    walk.read.push(message);
    const own = messageTokens(message);
    walk.all += own;
    // A message inserted before the latest trusted answer later (a summary carries an older
    // answer's successors' time) makes that usage stale: only an answer at least as new as
    // everything before it counts.
    const tokens = reportedTokens(message);
    if (tokens !== undefined && message.timestamp >= walk.latestTime) {
      walk.trusted = { index, tokens };
      walk.after = 0;
    } else walk.after += own;
    walk.latestTime = Math.max(walk.latestTime, message.timestamp);
  }
  latestWalk = walk;
  return walk;
}

/** Estimated tokens of a whole request: the prompt and tool list, then the messages. */
export function estimateRequestTokens(context: LlmContext): number {
  const head = tokensOf(context.systemPrompt.length) + (context.tools && context.tools.length > 0 ? tokensOf(JSON.stringify(context.tools).length) : 0);
  const walk = walkTokens(context.messages);
  if (!walk.trusted) return head + walk.all;
  return walk.trusted.tokens + (context.promptTokensSinceAnswer ?? 0) + walk.after;
}

/** `maxTokens` lowered to the room the context window leaves (unchanged for a model without a window). */
export function fitOutputToWindow(model: Model, context: LlmContext, maxTokens: number): number {
  if (model.contextWindow <= 0) return Math.max(1, maxTokens);
  const room = model.contextWindow - estimateRequestTokens(context) - SAFETY_TOKENS;
  return Math.min(maxTokens, Math.max(1, room));
}
