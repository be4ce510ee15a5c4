/**
 * How a built-in tool's calls and results are shown, declared beside the tool. Only data and pure
 * functions returning plain strings and structures live here: the terminal and the HTML export
 * (layers above) apply colour, escaping and the terminal sanitiser to what these return.
 */

/** A call's arguments as the terminal summary reads them. */
export interface SummaryArguments {
  /** A string argument already made safe for the terminal by the renderer; undefined when absent or not a string. */
  text(key: string): string | undefined;
  /** An argument as the model sent it. */
  value(key: string): unknown;
}

/** A part of the export's header line: an argument (the path, the pattern) or a muted extra. */
export interface ExportHeadPart {
  kind: "argument" | "extra";
  text: string;
}

/** A call's body in the export: a shell command, a file's content, or replacements as a diff. */
export interface ExportBody {
  kind: "command" | "file" | "diff";
  text: string;
}

export interface ExportedCall {
  head: ExportHeadPart[];
  body?: ExportBody;
}

/** What the export knows of a call's result when it draws the call. */
export interface ExportedResult {
  isError: boolean;
  details: unknown;
}

export interface ToolPresentation {
  /** The one-line summary after the tool's name (the command, the path, the pattern). */
  summary(args: SummaryArguments): string;
  /** Which end of a long result a folded block keeps. */
  keep: "head" | "tail";
  /**
   * `command`: the output is a program's (progress bars are resolved, and a truncation notice
   * stays under the end of the kept output); `text`: lines as they are.
   */
  output: "command" | "text";
  /** A result shown as a change: `diff` from `details.diff`, `written` from the content written. */
  change?: "diff" | "written";
  /** The export's header and body of a call; undefined when the arguments are not the expected shape. */
  exportCall?(args: Record<string, unknown>, result: ExportedResult | undefined): ExportedCall | undefined;
}

/** Whitespace runs as one space, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function stringArgument(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" ? value : undefined;
}

export function numberArgument(args: Record<string, unknown>, key: string): number | undefined {
  const value = args[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The path argument of a session written by any version (older ones used `file_path`). */
export function pathArgument(args: Record<string, unknown>): string | undefined {
  return stringArgument(args, "path") ?? stringArgument(args, "file_path");
}

export const argument = (text: string): ExportHeadPart => ({ kind: "argument", text });
export const extra = (text: string): ExportHeadPart => ({ kind: "extra", text });
