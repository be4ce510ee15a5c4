/**
 * Preparation every provider request shares: failed and aborted answers are left out (the model
 * never sees them), and a tool call left without a result gets an error result
 * "No result provided" before the next assistant or user message, or at the end.
 */
import type { LlmMessage, LlmToolCall } from "./types.ts";

export const MISSING_TOOL_RESULT_TEXT = "No result provided";

export function closeToolCalls(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let pending: LlmToolCall[] = [];
  let answered = new Set<string>();
  const close = (): void => {
    for (const call of pending) {
      if (answered.has(call.id)) continue;
      out.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
        isError: true,
        timestamp: Date.now(),
      });
    }
    pending = [];
    answered = new Set();
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      close();
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      pending = message.content.filter((block): block is LlmToolCall => block.type === "toolCall");
    } else if (message.role === "toolResult") {
      answered.add(message.toolCallId);
    } else {
      close();
    }
    out.push(message);
  }
  close();
  return out;
}
