/**
 * A tool that reports progress while it works: `count_lines` counts the lines of each file it is
 * given, one update per file, and stops when the run is cancelled (Escape).
 *
 *   pig -e examples/extensions/progress-tool.ts
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Type } from "typebox";
import type { ExtensionAPI } from "pig/extension";

export default function progressTool(pi: ExtensionAPI) {
  pi.registerTool({
    name: "count_lines",
    label: "Count lines",
    description: "Counts the lines of each of the given files.",
    promptSnippet: "Count the lines of files",
    parameters: Type.Object({ paths: Type.Array(Type.String(), { description: "Files, relative to the working directory" }) }),
    async execute(_id, params, signal, onUpdate, ctx) {
      const counts: Record<string, number> = {};
      for (const [index, path] of params.paths.entries()) {
        if (signal?.aborted) throw new Error("Cancelled");
        const text = await readFile(resolve(ctx.cwd, path), "utf8");
        counts[path] = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
        onUpdate?.({ content: [{ type: "text", text: `${index + 1}/${params.paths.length}: ${path}` }], details: { counts } });
      }
      const lines = Object.entries(counts).map(([path, n]) => `${path}: ${n}`);
      return { content: [{ type: "text", text: lines.join("\n") }], details: { counts } };
    },
  });
}
