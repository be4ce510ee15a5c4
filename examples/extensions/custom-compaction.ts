/**
 * Replaces pig's compaction summary with a plain list of the files the compacted part of the
 * conversation read or changed, made without a model call.
 *
 *   pig -e examples/extensions/custom-compaction.ts
 */
import type { ExtensionAPI } from "pig/extension";

export default function customCompaction(pi: ExtensionAPI) {
  pi.on("session_before_compact", (event) => {
    const { preparation } = event;
    const touched = new Set<string>();
    for (const message of preparation.messagesToSummarize) {
      if (message.role !== "assistant") continue;
      for (const block of message.content) {
        if (block.type === "toolCall" && typeof block.arguments?.path === "string") touched.add(block.arguments.path);
      }
    }
    const list = [...touched].sort();
    const summary = list.length > 0 ? `Earlier in this session these files were read or changed:\n${list.map((p) => `- ${p}`).join("\n")}` : "Earlier in this session no files were touched.";
    return {
      compaction: { summary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details: { files: list } },
    };
  });
}
