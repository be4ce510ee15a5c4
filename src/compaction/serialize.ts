/**
 * A conversation flattened to labelled text for a summariser. Sent as one user message, it
 * reads as material to summarise rather than a dialogue to continue.
 */
import type { LlmMessage } from "../ai/message-types.ts";

/** Tool results longer than this are cut: their gist is enough for a summary. */
export const TOOL_RESULT_MAX_CHARS = 2000;

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[... ${text.length - max} more characters truncated]`;
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("");
}

function assistantParts(content: Extract<LlmMessage, { role: "assistant" }>["content"]): string[] {
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of content) {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "thinking") thinking.push(block.thinking);
    else if (block.type === "toolCall") {
      const args = Object.entries(block.arguments ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      calls.push(`${block.name}(${args.join(", ")})`);
    }
  }
  const parts: string[] = [];
  if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
  if (text.length > 0) parts.push(`[Assistant]: ${text.join("\n")}`);
  if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
  return parts;
}

/**
 * `[User]: …`, `[Assistant thinking]: …`, `[Assistant]: …`, `[Assistant tool calls]: name(k=v, …); …`
 * and `[Tool result]: …` parts, separated by blank lines. Images are left out, and so are
 * parts without text.
 */
export function serializeConversation(messages: readonly LlmMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = textOf(message.content);
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      parts.push(...assistantParts(message.content));
    } else if (message.role === "toolResult") {
      const text = textOf(message.content);
      if (text) parts.push(`[Tool result]: ${truncate(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
