/**
 * `grep`: matching lines as `path:line: text` (context lines as `path-line- text`), limited to a
 * number of matches and 50 KB, with notices that say how to get more.
 */
import { readFile } from "node:fs/promises";
import { basename, relative, sep } from "node:path";
import { abortable } from "./abort.ts";
import { searchBuiltin, searchWithRipgrep, type GrepMatch } from "./grep-search.ts";
import { listingResult } from "./listing.ts";
import { resolveSearchRoot } from "./paths.ts";
import { externalSearchAllowed, findRipgrep } from "./search-bin.ts";
import { GREP_MAX_LINE_LENGTH, truncateLine, type TruncationResult } from "./truncate.ts";
import type { ToolDefinition, ToolResult } from "./types.ts";

export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  context?: number;
  limit?: number;
}

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

export const GREP_PARAMETERS = {
  type: "object",
  required: ["pattern"],
  properties: {
    pattern: { type: "string", description: "Search pattern (regex or literal string)" },
    path: { type: "string", description: "Directory or file to search (default: current directory)" },
    glob: { type: "string", description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" },
    ignoreCase: { type: "boolean", description: "Case-insensitive search (default: false)" },
    literal: { type: "boolean", description: "Treat pattern as literal string instead of regex (default: false)" },
    context: { type: "number", description: "Number of lines to show before and after each match (default: 0)" },
    limit: { type: "number", description: "Maximum number of matches to return (default: 100)" },
  },
};

const DEFAULT_LIMIT = 100;

/** Lines of a file for context display, "\r\n" and "\r" read as line breaks; [] if unreadable. */
function fileLines(): (path: string) => Promise<string[]> {
  const cache = new Map<string, string[]>();
  return async (path) => {
    let lines = cache.get(path);
    if (!lines) {
      try {
        lines = (await readFile(path, "utf8")).replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
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

export function createGrepTool(options: SearchToolOptions = {}): ToolDefinition<GrepArgs, GrepDetails | undefined> {
  return {
    name: "grep",
    label: "grep",
    description: `Look for a regex (or, with literal, a plain string) in file contents and list each matching line with its file path and line number. Files ignored by .gitignore are skipped. Returns at most ${DEFAULT_LIMIT} matches or 50KB of output, whichever comes first, and cuts lines longer than ${GREP_MAX_LINE_LENGTH} characters.`,
    parameters: GREP_PARAMETERS,
    promptSnippet: "Search file contents for patterns (respects .gitignore)",
    execute(_id, args, signal, _onUpdate, ctx): Promise<ToolResult<GrepDetails | undefined>> {
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
  };
}
