/**
 * What the conversation looks like on screen, message by message: the person's messages, the
 * answers (Markdown), tool calls with their result blocks, `!` commands, summaries of compacted
 * or abandoned branches, and the custom messages extensions show. The live view prints these
 * as events arrive; resuming a session prints the same rows from its entries.
 */
import type { AssistantMessage } from "../../../ai/types.ts";
import type { BashExecutionMessage } from "../../../session/format.ts";
import { splitAttachedFiles } from "../../../session/title.ts";
import type { Theme } from "../theme.ts";
import { MarkdownStream } from "./markdown.ts";
import type { ToolBlocks } from "./tool-blocks.ts";
import { formatToolCall, formatToolResult, PREVIEW_LINES, type ToolBlock } from "./tools.ts";
import { commandOutputLine, printable, printableLine } from "./terminal-text.ts";
import { stringWidth, stripAnsi } from "../../../util/width.ts";
import { wrapLine } from "./wrap.ts";

export interface TranscriptStyle {
  theme: Theme;
  /** Columns to fit. */
  width: number;
  showThinking: boolean;
  codeBlockIndent: string;
  hyperlinks: boolean;
}

type Content = string | readonly { type?: string; text?: string; mimeType?: string }[];

/** A user message's text as shown: attached files by name, images as a mark. */
export function shownUserText(content: Content): string {
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "[image]")).join(" ");
  // A file's own text may hold `</file>`: the run of attached files is found as titles find it.
  const { files, before, after } = splitAttachedFiles(text);
  return `${before}${files.map((name) => `[file ${name}]\n`).join("")}${after}`.replace(/\n+$/, "");
}

export function userRows(content: Content, s: TranscriptStyle): string[] {
  const t = s.theme;
  const marker = `${t.fg("accent", "›")} `;
  return shownUserText(content)
    .split("\n")
    .flatMap((line, i) => wrapLine(t.bold(printableLine(line)), s.width, { first: i === 0 ? marker : "  ", rest: "  " }));
}

/** Markdown text rendered whole (as it streamed). */
export function markdownRows(text: string, s: TranscriptStyle): string[] {
  let out = "";
  const md = new MarkdownStream(s.theme, (chunk) => (out += chunk), { codeBlockIndent: s.codeBlockIndent, width: () => s.width, hyperlinks: s.hyperlinks });
  md.push(text);
  md.end();
  return out.replace(/\n$/, "").split("\n");
}

export function thinkingRows(text: string, s: TranscriptStyle): string[] {
  const t = s.theme;
  if (!s.showThinking) return [hiddenThinking(t)];
  const lines = text.replace(/^\n+|\n+$/g, "").split("\n");
  return lines.flatMap((line, i) => thinkingLineRows(line, i === 0, t, s.width));
}

/** One line of thinking, dimmed; the first of a block says it is thinking. */
export function thinkingLineRows(line: string, first: boolean, t: Theme, width: number): string[] {
  return wrapLine(t.italic(t.fg("thinkingText", printableLine(line))), width, { first: first ? t.italic(t.fg("thinkingText", "thinking: ")) : "" });
}

/** The mark left where thinking happened while thinking is hidden. */
export function hiddenThinking(t: Theme): string {
  return t.italic(t.fg("thinkingText", "(thinking hidden · Ctrl+T shows it)"));
}

/** What ends an answer that did not finish normally. */
export function answerEndRows(answer: Pick<AssistantMessage, "stopReason" | "errorMessage">, t: Theme, where?: string): string[] {
  if (answer.stopReason === "error") {
    const rows = printable(`Error: ${answer.errorMessage ?? "the request failed"}`)
      .split("\n")
      .map((line) => t.fg("error", line));
    if (where) rows.push(t.fg("muted", `  ${printableLine(where)}`));
    return rows;
  }
  if (answer.stopReason === "aborted") return [t.fg("warning", "(aborted)")];
  if (answer.stopReason === "length") return [t.fg("warning", "(the answer hit the output limit)")];
  return [];
}

/** A whole answer: thinking, text; tool calls are shown with their results. */
export function assistantRows(answer: AssistantMessage, s: TranscriptStyle): string[] {
  const rows: string[] = [];
  for (const block of answer.content) {
    if (block.type === "text" && block.text.trim()) rows.push(...markdownRows(block.text, s));
    else if (block.type === "thinking" && (block as { thinking?: string }).thinking?.trim()) rows.push(...thinkingRows((block as { thinking: string }).thinking, s));
  }
  rows.push(...answerEndRows(answer, s.theme));
  return rows;
}

export function toolRows(block: ToolBlock, blocks: ToolBlocks, s: TranscriptStyle, withCall: boolean): string[] {
  const number = blocks.add(block);
  const rows = withCall ? [formatToolCall(block.name, block.args, s.theme, s.width)] : [];
  return [...rows, ...formatToolResult(block, s.theme, { expanded: blocks.expandedAll, width: s.width, number })];
}

/**
 * A `!` command as typed, as the user's own text is shown: its mark (`!`, or `!!` kept out of the
 * context), then each line of the command wrapped at the terminal's width, the rows after the
 * first under the command, not under its mark.
 */
export function bashCommandLineRows(command: string, exclude: boolean, t: Theme, width: number): string[] {
  const mark = exclude ? "!!" : "!";
  const marker = `${t.fg("bashMode", mark)} `;
  const under = " ".repeat(mark.length + 1);
  return command.split("\n").flatMap((line, i) => wrapLine(t.bold(printableLine(line)), width, { first: i === 0 ? marker : under, rest: under }));
}

/** A `!` command: its line, its output (the end of it when long), and how it ended. */
export function bashCommandRows(message: BashExecutionMessage, s: TranscriptStyle, expanded: boolean): string[] {
  const t = s.theme;
  const rows = bashCommandLineRows(message.command, message.excludeFromContext === true, t, s.width);
  const lines = message.output.replace(/\n+$/, "").split("\n").filter((l, _i, all) => all.length > 1 || l !== "");
  const shown = expanded ? lines : lines.slice(-PREVIEW_LINES * 2);
  if (shown.length < lines.length) rows.push(`  ${t.fg("dim", `… ${lines.length - shown.length} earlier lines`)}`);
  rows.push(...commandOutputRows(shown, t, s.width));
  rows.push(...bashStatusRows(message, t));
  return rows;
}

/** Lines a `!` command printed, under a gutter, broken anywhere to fit (program output, not prose). */
export function commandOutputRows(lines: readonly string[], t: Theme, width: number): string[] {
  const gutter = `  ${t.fg("border", "│")} `;
  return lines.flatMap((line) => wrapLine(commandOutputLine(line), width, { first: gutter, rest: gutter, verbatim: true }));
}

export function bashStatusRows(message: BashExecutionMessage, t: Theme): string[] {
  const rows: string[] = [];
  if (message.cancelled) rows.push(t.fg("warning", "  (cancelled)"));
  else if (message.exitCode) rows.push(t.fg("error", `  exit code ${message.exitCode}`));
  if (message.truncated && message.fullOutputPath) rows.push(t.fg("dim", `  full output: ${printableLine(message.fullOutputPath)}`));
  return rows;
}

/** Rows of a summary shown collapsed: enough to see what it is about. */
const SUMMARY_PREVIEW_ROWS = 4;

/**
 * A summary that stands in for earlier messages (compaction) or an abandoned branch: the
 * model's Markdown rendered as answers are, inside a gutter, blank rows left out; collapsed, its
 * first rows and how many more there are.
 */
export function summaryRows(title: string, summary: string, s: TranscriptStyle, expanded: boolean): string[] {
  const t = s.theme;
  const gutter = `  ${t.fg("border", "│")} `;
  const rendered = markdownRows(summary, { ...s, width: Math.max(20, s.width - stringWidth(gutter)) }).filter((row) => stripAnsi(row).trim());
  const shown = expanded ? rendered : rendered.slice(0, SUMMARY_PREVIEW_ROWS);
  const rows = [t.fg("muted", printableLine(title)), ...shown.map((row) => `${gutter}${row}`)];
  if (shown.length < rendered.length) rows.push(`  ${t.fg("dim", `… ${rendered.length - shown.length} more lines of the summary`)}`);
  return rows;
}

/** A message an extension showed (`display: true`). */
export function customRows(customType: string, content: Content, s: TranscriptStyle): string[] {
  const t = s.theme;
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "[image]")).join("\n");
  const label = `${t.fg("customMessageLabel", `[${printableLine(customType)}]`)} `;
  return text.split("\n").flatMap((line, i) => wrapLine(printableLine(line), s.width, { first: i === 0 ? label : "  ", rest: "  " }));
}

/** The rule under a replayed conversation: what follows happens now. */
export function replaySeparator(t: Theme, width: number): string {
  const label = " end of the saved conversation ";
  const side = Math.max(3, Math.floor((Math.min(width, 80) - label.length) / 2));
  return t.fg("dim", `${"─".repeat(side)}${label}${"─".repeat(side)}`);
}
