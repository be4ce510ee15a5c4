/** `write`: creates or replaces a whole file, creating missing parent directories. */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { abortable, throwIfAborted } from "./abort.ts";
import { withFileMutationQueue } from "./mutation-queue.ts";
import { resolveToCwd } from "./paths.ts";
import type { ToolDefinition } from "./types.ts";

export interface WriteArgs {
  path: string;
  content: string;
}

export const WRITE_PARAMETERS = {
  type: "object",
  required: ["path", "content"],
  properties: {
    path: { type: "string", description: "Path to the file to write (relative or absolute)" },
    content: { type: "string", description: "Content to write to the file" },
  },
};

export function createWriteTool(): ToolDefinition<WriteArgs, undefined> {
  return {
    name: "write",
    label: "write",
    description:
      "Save content to a file, replacing the whole file if it already exists and creating it (and any missing parent directories) if it does not.",
    parameters: WRITE_PARAMETERS,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    promptSnippet: "Create or overwrite files",
    promptGuidelines: ["Use write only for new files or complete rewrites."],
    execute(_id, args, signal, _onUpdate, context) {
      const path = resolveToCwd(args.path, context.cwd);
      return abortable(signal, () =>
        withFileMutationQueue(path, async () => {
          throwIfAborted(signal);
          await mkdir(dirname(path), { recursive: true });
          throwIfAborted(signal);
          await writeFile(path, args.content, "utf8");
          return { content: [{ type: "text", text: `Successfully wrote to ${args.path}` }], details: undefined };
        }),
      );
    },
  };
}
