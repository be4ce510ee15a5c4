/**
 * `grep`: matching lines as `path:line: text` (context lines as `path-line- text`), limited to a
 * number of matches and 50 KB, with notices that say how to get more.
 */
import { asyncFs } from "../util/async-fs.ts";
import { basename, relative, sep } from "node:path";
import * as v from "valibot";
import { abortable } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { searchBuiltin, searchWithRipgrep, type GrepMatch } from "./grep-search.ts";
import { listingResult } from "./listing.ts";
import { resolveSearchRoot } from "./paths.ts";
import { argument, extra, pathArgument, stringArgument, type ExportedCall } from "./presentation.ts";
import { externalSearchAllowed, findRipgrep } from "./search-bin.ts";
import { GREP_MAX_LINE_LENGTH, truncateLine, type TruncationResult } from "./truncate.ts";
import type { ToolResult } from "./types.ts";

export interface GrepDetails {
  /** The match limit, when it was reached. */
  matchLimitReached?: number;
  truncation?: TruncationResult;
  linesTruncated?: boolean;
}

export interface SearchToolOptions {
  /** Use rg/fd when installed (default: yes, unless PIG_NO_EXTERNAL_SEARCH=1). */
  externalSearch?: boolean;
}

const GrepArguments = () => v.object({
  pattern: v.pipe(v.string(), v.description("Search pattern (regex or literal string)")),
  path: v.optional(v.pipe(v.string(), v.description("Directory or file to search (default: current directory)"))),
  glob: v.optional(v.pipe(v.string(), v.description("Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'"))),
  ignoreCase: v.optional(v.pipe(v.boolean(), v.description("Case-insensitive search (default: false)"))),
  literal: v.optional(v.pipe(v.boolean(), v.description("Treat pattern as literal string instead of regex (default: false)"))),
  context: v.optional(v.pipe(v.number(), v.description("Number of lines to show before and after each match (default: 0)"))),
  limit: v.optional(v.pipe(v.number(), v.description("Maximum number of matches to return (default: 100)"))),
});
export type GrepArgs = v.InferOutput<ReturnType<typeof GrepArguments>>;

/** The export's header for grep and find: the pattern, then where and which files. */
export function searchExport(args: Record<string, unknown>): ExportedCall | undefined {
  const pattern = stringArgument(args, "pattern");
  if (pattern === undefined) return undefined;
  const path = pathArgument(args);
  const glob = stringArgument(args, "glob");
  const where = path ? ` in ${path}` : "";
  return { head: [argument(pattern), extra(`${where}${glob ? ` (${glob})` : ""}`.trim())] };
}

const DEFAULT_LIMIT = 100;

/** Lines of a file for context display, "\r\n" and "\r" read as line breaks; [] if unreadable. */
function fileLines(): (path: string) => Promise<string[]> {
  const cache = new Map<string, string[]>();
  return async (path) => {
    let lines = cache.get(path);
    if (!lines) {
      try {
        lines = (await asyncFs().readFile(path, "utf8")).replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
      } catch {
        lines = [];
      }
      cache.set(path, lines);
    }
    return lines;
  };
}

async function render(matches: GrepMatch[], root: string, isDirectory: boolean, context: number) {
  const label = (file: string) => {
    if (isDirectory) {
      const rel = relative(root, file);
      if (rel && !rel.startsWith("..")) return sep === "/" ? rel : rel.split(sep).join("/");
    }
    return basename(file);
  };
  const linesOf = fileLines();
  const out: string[] = [];
  let linesTruncated = false;
  const cut = (text: string) => {
    const t = truncateLine(text);
    if (t.wasTruncated) linesTruncated = true;
    return t.text;
  };
  for (const match of matches) {
    const name = label(match.file);
    if (context === 0) {
      out.push(`${name}:${match.line}: ${cut(match.text)}`);
      continue;
    }
    const lines = await linesOf(match.file);
    if (lines.length === 0) {
      out.push(`${name}:${match.line}: (unable to read file)`);
      continue;
    }
    const first = Math.max(1, match.line - context);
    const last = Math.min(lines.length, match.line + context);
    for (let n = first; n <= last; n++) {
      const text = cut(lines[n - 1] ?? "");
      out.push(n === match.line ? `${name}:${n}: ${text}` : `${name}-${n}- ${text}`);
    }
  }
  return { text: out.join("\n"), linesTruncated };
}

export const grepTool = defineBuiltinTool({
  name: "grep",
  description: `Look for a regex (or, with literal, a plain string) in file contents and list each matching line with its file path and line number. Files ignored by .gitignore are skipped. Returns at most ${DEFAULT_LIMIT} matches or 50KB of output, whichever comes first, and cuts lines longer than ${GREP_MAX_LINE_LENGTH} characters.`,
  arguments: GrepArguments,
  promptSnippet: "Search file contents for patterns (respects .gitignore)",
  presentation: {
    summary: (args) =>
      `${JSON.stringify(args.text("pattern") ?? "")}${args.text("path") ? ` in ${args.text("path")}` : ""}${args.text("glob") ? ` (${args.text("glob")})` : ""}`,
    keep: "head",
    output: "text",
    exportCall: searchExport,
  },
  execute(_id, args, signal, _onUpdate, ctx, options: SearchToolOptions): Promise<ToolResult<GrepDetails | undefined>> {
    return abortable(signal, async () => {
      const { root, isDirectory } = resolveSearchRoot(args.path, ctx.cwd);
      const limit = Math.max(1, args.limit ?? DEFAULT_LIMIT);
      const context = args.context && args.context > 0 ? Math.floor(args.context) : 0;
      const query = {
        pattern: args.pattern,
        cwd: ctx.cwd,
        root,
        isDirectory,
        glob: args.glob,
        ignoreCase: args.ignoreCase ?? false,
        literal: args.literal ?? false,
        limit,
        signal,
      };
      const rg = externalSearchAllowed(options.externalSearch) ? findRipgrep(ctx.agentDir) : undefined;
      const found = rg ? await searchWithRipgrep(rg, query) : await searchBuiltin(query);
      if (found.matches.length === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };

      const rendered = await render(found.matches, root, isDirectory, context);
      const limitNotice = {
        text: `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`,
        details: { matchLimitReached: limit },
      };
      const linesNotice = {
        text: `Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`,
        details: { linesTruncated: true },
      };
      return listingResult<GrepDetails>(
        rendered.text,
        found.limitReached ? limitNotice : undefined,
        rendered.linesTruncated ? linesNotice : undefined,
      );
    });
  },
});

export const createGrepTool = (options: SearchToolOptions = {}) => grepTool.create(options);
