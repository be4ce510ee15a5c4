/**
 * Tool calls as one line each (`● bash  npm test`) and their results as a block under a gutter:
 * collapsed to what matters (the end of a command's output, the start of a file, the changed
 * hunks of an edit, the start of a new file), or whole when expanded. A collapsed block says
 * how much it hides and how to see it (`/expand N`, N being the block's number in this view).
 * Success and failure differ in mark and colour; every row wraps to the terminal's width.
 */
import { builtinPresentation } from "../../../tools/index.ts";
import { oneLine } from "../../../tools/presentation.ts";
import type { ToolResult } from "../../../tools/types.ts";
import { truncateToWidth } from "../../../util/width.ts";
import type { Theme } from "../theme.ts";
import { countChanges, DIFF_LINE_HEAD, hunkPreview, kindOf } from "./diff-view.ts";
import { commandOutput, commandOutputLine, printable, printableLine } from "./terminal-text.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";
import { wrapLine } from "./wrap.ts";

/** Lines a collapsed block shows. */
export const PREVIEW_LINES = 8;

export interface ToolBlock {
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
  isError: boolean;
  /** A write that replaced a file: the compact diff from the old content (computed by the view). */
  replacedDiff?: string;
}

export interface BlockFormat {
  expanded: boolean;
  width: number;
  /** The block's number for `/expand N` (no hint without one). */
  number?: number;
}

/**
 * The essence of a call's arguments: the command, the path, the pattern. A model wrote them:
 * every control in them is shown (before the summary is flattened to one line, so a carriage
 * return shows as one instead of becoming a space).
 */
export function callSummary(name: string, args: Record<string, unknown>): string {
  const presentation = builtinPresentation(name);
  if (!presentation) return oneLine(terminalSafe(JSON.stringify(args)));
  return presentation.summary({
    text: (key) => (typeof args[key] === "string" ? terminalSafe(args[key] as string) : undefined),
    value: (key) => args[key],
  });
}

export function formatToolCall(name: string, args: Record<string, unknown>, theme: Theme, width = 1_000): string {
  return truncateToWidth(`${theme.fg("toolTitle", "●")} ${theme.bold(printableLine(name))}  ${theme.fg("muted", printableLine(callSummary(name, args)))}`, width);
}

/** A result's text as it is (lines are made printable by `printer`). */
function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}

/**
 * How a line of a tool's output is made printable: a command's as program output (progress bars
 * resolved). Line by line, so only the lines a block shows are made printable, not a long
 * output's every line.
 */
function printer(name: string): (line: string) => string {
  return isCommand(name) ? commandOutputLine : printableLine;
}

function isCommand(name: string): boolean {
  return builtinPresentation(name)?.output === "command";
}

function linesOf(text: string): string[] {
  const trimmed = text.replace(/\n+$/, "");
  return trimmed ? trimmed.split("\n") : [];
}

const DIFF_COLOURS = { added: "toolDiffAdded", removed: "toolDiffRemoved", context: "toolDiffContext", gap: "toolDiffContext" } as const;

function colourDiffLine(line: string, theme: Theme): string {
  return theme.fg(DIFF_COLOURS[kindOf(line)], printableLine(line));
}

/** A body of one line and nothing hidden. */
function oneLineBody(line: string): Body {
  return { lines: [line], hidden: 0, hiddenWhat: "", where: "head" };
}

/** Which end of a long result a collapsed block keeps. */
function keeps(name: string): "head" | "tail" {
  return builtinPresentation(name)?.keep ?? "head";
}

interface Body {
  lines: string[];
  /** Lines left out of `lines` (and what they are), or 0. */
  hidden: number;
  hiddenWhat: string;
  where: "head" | "tail";
  /** A line before the body, e.g. an edit's `+3 −1`. */
  summary?: string;
  /** What a wrapped line's rows hang past (a diff line's sign and number), so they do not read as lines of their own. */
  hangAfter?: RegExp;
}

function diffBody(diff: string, theme: Theme, expanded: boolean): Body {
  const all = diff.split("\n");
  const { added, removed } = countChanges(all);
  const summary = `${theme.fg("toolDiffAdded", `+${added}`)} ${theme.fg("toolDiffRemoved", `−${removed}`)}`;
  if (expanded) return { lines: all.map((l) => colourDiffLine(l, theme)), hidden: 0, hiddenWhat: "", where: "head", summary, hangAfter: DIFF_LINE_HEAD };
  const preview = hunkPreview(all, PREVIEW_LINES * 2);
  return {
    lines: preview.lines.map((l) => (l === "⋯" ? theme.fg("dim", "  ⋯") : colourDiffLine(l, theme))),
    hidden: preview.hiddenChanges,
    hiddenWhat: preview.hiddenChanges === 1 ? "changed line" : "changed lines",
    where: "head",
    summary,
    hangAfter: DIFF_LINE_HEAD,
  };
}

/** `lines` as they are; `style` makes a shown one printable and colours it. */
function textBody(lines: string[], where: "head" | "tail", expanded: boolean, style: (l: string) => string): Body {
  const shown = expanded || lines.length <= PREVIEW_LINES ? lines : where === "head" ? lines.slice(0, PREVIEW_LINES) : lines.slice(-PREVIEW_LINES);
  const hidden = lines.length - shown.length;
  const what = `${where === "tail" ? "earlier" : "more"} line${hidden === 1 ? "" : "s"}`;
  return { lines: shown.map(style), hidden, hiddenWhat: what, where };
}

function bodyOf(block: ToolBlock, theme: Theme, expanded: boolean): Body {
  const { name, result, isError } = block;
  const shown = printer(name);
  if (isError) {
    const lines = linesOf(textOf(result));
    // A failed command's reason is at its end (the exit code, the last test that failed).
    return textBody(lines.length > 0 ? lines : ["(failed without a message)"], keeps(name), expanded, (l) => theme.fg("error", shown(l)));
  }
  const details = result.details as { diff?: unknown } | undefined;
  const change = builtinPresentation(name)?.change;
  if (change === "diff" && typeof details?.diff === "string") return diffBody(details.diff, theme, expanded);
  if (change === "written") {
    if (block.replacedDiff !== undefined) {
      if (block.replacedDiff === "") return oneLineBody(theme.fg("muted", "(the content did not change)"));
      return diffBody(block.replacedDiff, theme, expanded);
    }
    // A new file: the start of what was written.
    const content = typeof block.args.content === "string" ? block.args.content : "";
    const body = textBody(linesOf(content), "head", expanded, (l) => theme.fg("toolDiffAdded", shown(l)));
    return { ...body, summary: theme.fg("muted", printable(textOf(result))) };
  }
  const lines = linesOf(textOf(result));
  if (lines.length === 0) return oneLineBody(theme.fg("muted", "(no output)"));
  // A truncated command's notice (where the full output is) stays under the end of its output.
  const last = shown(lines.at(-1)!);
  const notice = isCommand(name) && TRUNCATION_NOTICE.test(last) ? last : undefined;
  if (notice !== undefined) lines.pop();
  if (notice !== undefined && lines.length > 0 && shown(lines.at(-1)!) === "") lines.pop();
  const body = textBody(lines, keeps(name), expanded, (l) => theme.fg("toolOutput", shown(l)));
  return notice === undefined ? body : { ...body, lines: [...body.lines, theme.fg("dim", notice)] };
}

const TRUNCATION_NOTICE = /^\[Showing lines \d+-\d+ of \d+/;

/** The rows shown under a call: collapsed, or everything when `format.expanded`. */
export function formatToolResult(block: ToolBlock, theme: Theme, format: BlockFormat): string[] {
  const body = bodyOf(block, theme, format.expanded);
  const bar = block.isError ? theme.fg("error", "│") : theme.fg("success", "│");
  const gutter = `  ${bar} `;
  const rows: string[] = [];
  if (block.isError) rows.push(`  ${theme.fg("error", `✗ ${block.name} failed`)}`);
  // Each line wraps under the gutter (an indented line keeps its indent on every row).
  const under = { first: gutter, rest: gutter };
  if (body.summary) rows.push(...wrapLine(body.summary, format.width, under));
  const hint =
    body.hidden > 0
      ? `  ${theme.fg("dim", `… ${body.hidden} ${body.hiddenWhat}${format.number !== undefined ? ` · /expand ${format.number}` : ""}`)}`
      : undefined;
  if (hint && body.where === "tail") rows.push(hint);
  const lineRows = body.hangAfter ? { ...under, hangAfter: body.hangAfter } : under;
  for (const line of body.lines) rows.push(...wrapLine(line, format.width, lineRows));
  if (hint && body.where === "head") rows.push(hint);
  return rows;
}

/** The last rows of output still arriving from a running tool, for the live region. */
export function liveOutputRows(text: string, theme: Theme, width: number, rows: number, totalLines?: number): string[] {
  const lines = linesOf(commandOutput(text));
  if (lines.length === 0) return [];
  const gutter = `  ${theme.fg("border", "┊")} `;
  const shown = lines.slice(-rows).map((l) => truncateToWidth(`${gutter}${theme.fg("toolOutput", l)}`, width));
  // Past its limit a command sends only its last lines, with the count of all of them.
  const above = Math.max(totalLines ?? 0, lines.length) - Math.min(rows, lines.length);
  return above > 0 ? [`  ${theme.fg("dim", `… ${above} earlier line${above === 1 ? "" : "s"}`)}`, ...shown] : shown;
}

/** How long a call took, as precise as is worth reading: 12ms, 1.4s, 12s, 2m 05s. */
export function elapsedText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}
