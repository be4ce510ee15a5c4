/** `write`: creates or replaces a whole file, creating missing parent directories. */
import { asyncFs } from "../util/async-fs.ts";
import { dirname } from "node:path";
import * as v from "valibot";
import { abortable, throwIfAborted } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { withFileMutationQueue } from "./mutation-queue.ts";
import { resolveToCwd } from "./paths.ts";
import { argument, extra, pathArgument, stringArgument } from "./presentation.ts";
import { formatCount } from "../util/count-text.ts";

const WriteArguments = () => v.object({
  path: v.pipe(v.string(), v.description("Path to the file to write (relative or absolute)")),
  content: v.pipe(v.string(), v.description("Content to write to the file")),
});
export type WriteArgs = v.InferOutput<ReturnType<typeof WriteArguments>>;

export const writeTool = defineBuiltinTool({
  name: "write",
  description:
    "Save content to a file, replacing the whole file if it already exists and creating it (and any missing parent directories) if it does not.",
  arguments: WriteArguments,
  constrainedSampling: { type: "json_schema", strict: "prefer" },
  promptSnippet: "Create or overwrite files",
  promptGuidelines: ["Use write only for new files or complete rewrites."],
  presentation: {
    summary: (args) => args.text("path") ?? ".",
    keep: "head",
    output: "text",
    change: "written",
    exportCall(args) {
      const path = pathArgument(args);
      const content = stringArgument(args, "content");
      if (path === undefined || content === undefined) return undefined;
      const lines = content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;
      return { head: [argument(path), extra(`${formatCount(lines)} line${lines === 1 ? "" : "s"}`)], body: { kind: "file", text: content } };
    },
  },
  execute(_id, args, signal, _onUpdate, context) {
    const path = resolveToCwd(args.path, context.cwd);
    return abortable(signal, () =>
      withFileMutationQueue(path, async () => {
        throwIfAborted(signal);
        await asyncFs().mkdir(dirname(path), { recursive: true });
        throwIfAborted(signal);
        await asyncFs().writeFile(path, args.content, "utf8");
        return { content: [{ type: "text", text: `Successfully wrote to ${args.path}` }], details: undefined };
      }),
    );
  },
});

export const createWriteTool = () => writeTool.create(undefined);
