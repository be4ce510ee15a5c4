/**
 * The custom base prompt (SYSTEM.md or `--system-prompt`) and the appended text
 * (APPEND_SYSTEM.md or `--append-system-prompt`). Project files under `.pig/` count only for a
 * trusted project: they change how the model is instructed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ContextFileDiagnostic } from "./context-files.ts";

export interface PromptFilesOptions {
  cwd: string;
  agentDir: string;
  /** Whether the project's `.pig/SYSTEM.md` and `.pig/APPEND_SYSTEM.md` may be used. */
  trusted: boolean;
  /** `--system-prompt`: text, or the path of a file holding it. */
  systemPrompt?: string;
  /** Every `--append-system-prompt` value in order (each text or a file path). */
  appendSystemPrompt?: readonly string[];
}

export interface PromptFilesResult {
  /** Replaces pig's default base prompt. */
  customPrompt?: string;
  /** Added after the base prompt. */
  appendPrompt?: string;
  diagnostics: ContextFileDiagnostic[];
}

/** A flag value naming an existing file (relative to cwd) stands for the file's content. */
function flagValue(value: string, cwd: string, what: string, diagnostics: ContextFileDiagnostic[]): string {
  const path = resolve(cwd, value);
  if (value === "" || !existsSync(path)) return value;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    diagnostics.push({
      level: "warning",
      path,
      message: `Could not read ${what} file ${path} (${(error as Error).message}); using the text itself`,
    });
    return value;
  }
}

/** The content of the first candidate that exists and can be read. */
function firstFile(candidates: readonly string[], diagnostics: ContextFileDiagnostic[]): string | undefined {
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      diagnostics.push({ level: "warning", path, message: `Could not read ${path}: ${(error as Error).message}; skipped` });
    }
  }
  return undefined;
}

export function resolvePromptFiles(options: PromptFilesOptions): PromptFilesResult {
  const diagnostics: ContextFileDiagnostic[] = [];
  const project = join(options.cwd, ".pig");
  const candidates = (name: string): string[] =>
    options.trusted ? [join(project, name), join(options.agentDir, name)] : [join(options.agentDir, name)];

  const customPrompt =
    options.systemPrompt !== undefined
      ? flagValue(options.systemPrompt, options.cwd, "system prompt", diagnostics)
      : firstFile(candidates("SYSTEM.md"), diagnostics);

  // An empty flag value adds nothing (not even a blank line), as upstream.
  const appendFlags = (options.appendSystemPrompt ?? []).filter((value) => value !== "");
  const appendPrompt =
    options.appendSystemPrompt !== undefined && options.appendSystemPrompt.length > 0
      ? appendFlags.map((value) => flagValue(value, options.cwd, "append system prompt", diagnostics)).join("\n\n")
      : firstFile(candidates("APPEND_SYSTEM.md"), diagnostics);

  // Empty text means "nothing", as upstream: an empty SYSTEM.md keeps the default prompt.
  return {
    ...(customPrompt ? { customPrompt } : {}),
    ...(appendPrompt ? { appendPrompt } : {}),
    diagnostics,
  };
}
