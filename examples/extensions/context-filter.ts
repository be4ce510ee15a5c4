/**
 * Keeps bulky tool output out of the model's context: before every model call, a tool result
 * longer than 4,000 characters is replaced by its first and last lines. The session file keeps
 * the whole result; only what is sent changes.
 *
 *   pig -e examples/extensions/context-filter.ts
 */
import type { ExtensionAPI } from "pig/extension";

const LIMIT = 4000;

type Block = { type: string; text?: string };
type Message = { role: string; content: Block[] };

export default function contextFilter(pi: ExtensionAPI) {
  pi.on("context", (event) => {
    const messages = (event.messages as Message[]).map((message) => {
      if (message.role !== "toolResult") return message;
      const text = message.content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
      if (text.length <= LIMIT) return message;
      const lines = text.split("\n");
      const kept = [...lines.slice(0, 20), `[… ${lines.length - 40} lines left out of the context …]`, ...lines.slice(-20)].join("\n");
      return { ...message, content: [{ type: "text" as const, text: kept }] };
    });
    return { messages };
  });
}
