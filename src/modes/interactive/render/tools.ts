/**
 * Tool calls as one line each (`● bash  npm test`) and their results as a short preview
 * (first lines and a count of the rest); edit diffs coloured line by line.
 */
import type { ToolResult } from "../../../tools/types.ts";
import type { Theme } from "../theme.ts";

const PREVIEW_LINES = 6;

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The essence of a call's arguments: the command, the path, the pattern. */
export function callSummary(name: string, args: Record<string, unknown>): string {
  const s = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : undefined);
  switch (name) {
    case "bash":
      return oneLine(s("command") ?? "");
    case "read": {
      const range = args.offset !== undefined ? `:${args.offset}${args.limit !== undefined ? `+${args.limit}` : ""}` : "";
      return `${s("path") ?? ""}${range}`;
    }
    case "write":
    case "edit":
    case "ls":
      return s("path") ?? ".";
    case "grep":
      return `${JSON.stringify(s("pattern") ?? "")}${s("path") ? ` in ${s("path")}` : ""}${s("glob") ? ` (${s("glob")})` : ""}`;
    case "find":
      return `${s("pattern") ?? ""}${s("path") ? ` in ${s("path")}` : ""}`;
    default:
      return oneLine(JSON.stringify(args));
  }
}

export function formatToolCall(name: string, args: Record<string, unknown>, theme: Theme): string {
  return `${theme.fg("toolTitle", "●")} ${theme.bold(name)}  ${theme.fg("muted", callSummary(name, args))}`;
}

function textOf(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
    .join("\n");
}

function colourDiff(diff: string, theme: Theme): string[] {
  return diff.split("\n").map((line) => {
    if (line.startsWith("+")) return theme.fg("toolDiffAdded", line);
    if (line.startsWith("-")) return theme.fg("toolDiffRemoved", line);
    return theme.fg("toolDiffContext", line);
  });
}

/** The lines shown under a call: a preview, or everything when `expanded`. */
export function formatToolResult(name: string, result: ToolResult, isError: boolean, theme: Theme, expanded = false): string[] {
  const details = result.details as { diff?: unknown } | undefined;
  let lines: string[];
  if (!isError && name === "edit" && typeof details?.diff === "string") lines = colourDiff(details.diff, theme);
  else {
    const text = textOf(result).replace(/\n+$/, "");
    lines = text ? text.split("\n") : ["(no output)"];
    lines = lines.map((line) => (isError ? theme.fg("error", line) : theme.fg("toolOutput", line)));
  }
  const shown = expanded ? lines : lines.slice(0, PREVIEW_LINES);
  const out = shown.map((line) => `  ${theme.fg("border", "│")} ${line}`);
  const hidden = lines.length - shown.length;
  if (hidden > 0) out.push(`  ${theme.fg("dim", `… ${hidden} more line${hidden === 1 ? "" : "s"} (Ctrl+O to expand)`)}`);
  return out;
}
