/**
 * A command: `/words <text>` counts the words of its argument, `/words` alone those of the last
 * answer. Works in every mode (in print and JSON mode, which have no UI, the notice is not shown).
 *
 *   pig -e examples/extensions/word-count-command.ts
 */
import type { ExtensionAPI } from "pig/extension";

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export default function wordCount(pi: ExtensionAPI) {
  pi.registerCommand("words", {
    description: "Count the words of the text given, or of the last answer",
    handler: async (args, ctx) => {
      let text = args.trim();
      if (!text) {
        const last = [...ctx.sessionManager.getBranch()].reverse().find((e) => e.type === "message" && e.message.role === "assistant");
        const content = last && last.type === "message" ? last.message.content : [];
        text = Array.isArray(content) ? content.map((b) => (b.type === "text" ? b.text : "")).join(" ") : String(content);
      }
      ctx.ui.notify(`${words(text)} words`, "info");
    },
  });
}
