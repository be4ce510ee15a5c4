/**
 * Preparation every provider request shares: failed and aborted answers are left out (the model
 * never sees them), and a tool call left without a result gets an error result
 * "No result provided" before the next assistant or user message, or at the end.
 */
import type { LlmMessage, LlmToolCall } from "./types.ts";
import { beginsWithSame } from "../util/same-start.ts";

export const MISSING_TOOL_RESULT_TEXT = "No result provided";

/** Where a walk over the messages stands: what it gave so far, and the calls of the latest answer. */
interface Walk {
  /** The messages read, in order (a copy). */
  read: LlmMessage[];
  out: LlmMessage[];
  pending: LlmToolCall[];
  answered: Set<string>;
}

/**
 * The walk of the latest call, before its final close. A long run's next request starts with the
 * same message objects (the converted messages are kept per message): the walk goes on from where
 * it stood instead of reading the whole context again.
 */
let latest: Walk | undefined;

/**
 * The latest walk, to go on with, when `messages` begins with every message it read; else a
 * fresh walk. Not a copy: the call that goes on with it replaces `latest` before it returns.
 */
function resumeFrom(messages: readonly LlmMessage[]): Walk {
  const known = latest;
  if (known && beginsWithSame(messages, known.read)) return { ...known };
  return { read: [], out: [], pending: [], answered: new Set() };
}

function missingResult(call: LlmToolCall): LlmMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
    isError: true,
    timestamp: Date.now(),
  };
}

/** Error results for the pending calls nobody answered; the walk has no pending calls after. */
function close(walk: Walk): void {
  for (const call of walk.pending) if (!walk.answered.has(call.id)) walk.out.push(missingResult(call));
  walk.pending = [];
  walk.answered = new Set();
}

export function closeToolCalls(messages: readonly LlmMessage[]): LlmMessage[] {
  const walk = resumeFrom(messages);
  for (let i = walk.read.length; i < messages.length; i++) {
    const message = messages[i]!;
    walk.read.push(message);
    if (message.role === "assistant") {
      close(walk);
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      walk.pending = message.content.filter((block): block is LlmToolCall => block.type === "toolCall");
    } else if (message.role === "toolResult") {
      walk.answered.add(message.toolCallId);
    } else {
      close(walk);
    }
    walk.out.push(message);
  }
  // `close` pushes onto the returned list and gives the walk new `pending` and `answered`.
  latest = { ...walk, out: walk.out.slice() };
  close(walk);
  return walk.out;
}
