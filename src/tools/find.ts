/** `find`: paths matching a glob under a directory, relative to it, .gitignore respected. */
import * as v from "valibot";
import { abortable } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { findBuiltin, findWithFd } from "./find-search.ts";
import { searchExport, type SearchToolOptions } from "./grep.ts";
import { listingResult } from "./listing.ts";
import { resolveSearchRoot } from "./paths.ts";
import { externalSearchAllowed, findFd } from "./search-bin.ts";
import type { TruncationResult } from "./truncate.ts";
import type { ToolResult } from "./types.ts";

export interface FindDetails {
  /** The result limit, when it was reached. */
  resultLimitReached?: number;
  truncation?: TruncationResult;
}

const FindArguments = () => v.object({
  pattern: v.pipe(v.string(), v.description("Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'")),
  path: v.optional(v.pipe(v.string(), v.description("Directory to search in (default: current directory)"))),
  limit: v.optional(v.pipe(v.number(), v.description("Maximum number of results (default: 1000)"))),
});
export type FindArgs = v.InferOutput<ReturnType<typeof FindArguments>>;

const DEFAULT_LIMIT = 1000;

export const findTool = defineBuiltinTool({
  name: "find",
  description: `Find files and directories whose path matches a glob pattern; results are relative to the searched directory and skip anything .gitignore excludes. Returns at most ${DEFAULT_LIMIT} results or 50KB of output, whichever comes first.`,
  arguments: FindArguments,
  promptSnippet: "Find files by glob pattern (respects .gitignore)",
  presentation: {
    summary: (args) => `${args.text("pattern") ?? ""}${args.text("path") ? ` in ${args.text("path")}` : ""}`,
    keep: "head",
    output: "text",
    exportCall: searchExport,
  },
  execute(_id, args, signal, _onUpdate, ctx, options: SearchToolOptions): Promise<ToolResult<FindDetails | undefined>> {
    return abortable(signal, async () => {
      const { root, isDirectory } = resolveSearchRoot(args.path, ctx.cwd);
      if (!isDirectory) throw new Error(`Not a directory: ${root}`);
      const limit = args.limit ?? DEFAULT_LIMIT;
      const query = { pattern: args.pattern, root, limit, signal };
      const fd = externalSearchAllowed(options.externalSearch) ? findFd(ctx.agentDir) : undefined;
      const paths = fd ? await findWithFd(fd, query) : await findBuiltin(query);
      if (paths.length === 0) return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };

      const limitNotice = {
        text: `${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`,
        details: { resultLimitReached: limit },
      };
      return listingResult<FindDetails>(paths.join("\n"), paths.length >= limit ? limitNotice : undefined);
    });
  },
});

export const createFindTool = (options: SearchToolOptions = {}) => findTool.create(options);
