/** `ls`: one directory's entries, dotfiles included, sorted case-insensitively, dirs with "/". */
import { existsSync, statSync } from "node:fs";
import { asyncFs } from "../util/async-fs.ts";
import { join } from "node:path";
import * as v from "valibot";
import { abortable, throwIfAborted } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { listingResult } from "./listing.ts";
import { resolveToCwd } from "./paths.ts";
import { argument, pathArgument } from "./presentation.ts";
import type { TruncationResult } from "./truncate.ts";
import type { ToolResult } from "./types.ts";

export interface LsDetails {
  /** The entry limit, when more entries remained. */
  entryLimitReached?: number;
  truncation?: TruncationResult;
}

const LsArguments = () => v.object({
  path: v.optional(v.pipe(v.string(), v.description("Directory to list (default: current directory)"))),
  limit: v.optional(v.pipe(v.number(), v.description("Maximum number of entries to return (default: 500)"))),
});
export type LsArgs = v.InferOutput<ReturnType<typeof LsArguments>>;

const DEFAULT_LIMIT = 500;

export const lsTool = defineBuiltinTool({
  name: "ls",
  description: `List the entries of a directory in alphabetical order, including hidden ones; directories end with '/'. Returns at most ${DEFAULT_LIMIT} entries or 50KB of output, whichever comes first.`,
  arguments: LsArguments,
  promptSnippet: "List directory contents",
  presentation: {
    summary: (args) => args.text("path") ?? ".",
    keep: "head",
    output: "text",
    exportCall: (args) => ({ head: [argument(pathArgument(args) ?? ".")] }),
  },
  execute(_id, args, signal, _onUpdate, ctx): Promise<ToolResult<LsDetails | undefined>> {
    return abortable(signal, async () => {
      const dir = resolveToCwd(args.path || ".", ctx.cwd);
      const limit = args.limit ?? DEFAULT_LIMIT;
      if (!existsSync(dir)) throw new Error(`Path not found: ${dir}`);
      if (!statSync(dir).isDirectory()) throw new Error(`Not a directory: ${dir}`);
      let names: string[];
      try {
        names = await asyncFs().readdir(dir);
      } catch (error) {
        throw new Error(`Cannot read directory: ${(error as Error).message}`);
      }
      names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      const lines: string[] = [];
      let entryLimitReached = false;
      for (const name of names) {
        if (lines.length >= limit) {
          entryLimitReached = true;
          break;
        }
        throwIfAborted(signal);
        try {
          // stat (not lstat): a link to a directory is listed as a directory.
          const info = await asyncFs().stat(join(dir, name));
          lines.push(info.isDirectory() ? `${name}/` : name);
        } catch {
          // Broken links and entries that vanished are left out.
        }
      }
      if (lines.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

      const limitNotice = { text: `${limit} entries limit reached. Use limit=${limit * 2} for more`, details: { entryLimitReached: limit } };
      return listingResult<LsDetails>(lines.join("\n"), entryLimitReached ? limitNotice : undefined);
    });
  },
});

export const createLsTool = () => lsTool.create(undefined);
