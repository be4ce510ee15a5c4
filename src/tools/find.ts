/** `find`: paths matching a glob under a directory, relative to it, .gitignore respected. */
import { statSync } from "node:fs";
import { abortable } from "./abort.ts";
import { findBuiltin, findWithFd } from "./find-search.ts";
import type { SearchToolOptions } from "./grep.ts";
import { resolveToCwd } from "./paths.ts";
import { externalSearchAllowed, findFd } from "./search-bin.ts";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";
import type { ToolDefinition, ToolResult } from "./types.ts";

export interface FindArgs {
  pattern: string;
  path?: string;
  limit?: number;
}

export interface FindDetails {
  /** The result limit, when it was reached. */
  resultLimitReached?: number;
  truncation?: TruncationResult;
}

export const FIND_PARAMETERS = {
  type: "object",
  required: ["pattern"],
  properties: {
    pattern: { type: "string", description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'" },
    path: { type: "string", description: "Directory to search in (default: current directory)" },
    limit: { type: "number", description: "Maximum number of results (default: 1000)" },
  },
};

const DEFAULT_LIMIT = 1000;

export function createFindTool(options: SearchToolOptions = {}): ToolDefinition<FindArgs, FindDetails | undefined> {
  return {
    name: "find",
    label: "find",
    description: `Find files and directories whose path matches a glob pattern; results are relative to the searched directory and skip anything .gitignore excludes. Returns at most ${DEFAULT_LIMIT} results or 50KB of output, whichever comes first.`,
    parameters: FIND_PARAMETERS,
    promptSnippet: "Find files by glob pattern (respects .gitignore)",
    execute(_id, args, signal, _onUpdate, ctx): Promise<ToolResult<FindDetails | undefined>> {
      return abortable(signal, async () => {
        const root = resolveToCwd(args.path || ".", ctx.cwd);
        let isDirectory: boolean;
        try {
          isDirectory = statSync(root).isDirectory();
        } catch {
          throw new Error(`Path not found: ${root}`);
        }
        if (!isDirectory) throw new Error(`Not a directory: ${root}`);
        const limit = args.limit ?? DEFAULT_LIMIT;
        const query = { pattern: args.pattern, root, limit, signal };
        const fd = externalSearchAllowed(options.externalSearch) ? findFd(ctx.agentDir) : undefined;
        const paths = fd ? await findWithFd(fd, query) : await findBuiltin(query);
        if (paths.length === 0) return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };

        const truncation = truncateHead(paths.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
        const details: FindDetails = {};
        const notices: string[] = [];
        if (paths.length >= limit) {
          notices.push(`${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`);
          details.resultLimitReached = limit;
        }
        if (truncation.truncated) {
          notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
          details.truncation = truncation;
        }
        const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
        return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
      });
    },
  };
}
