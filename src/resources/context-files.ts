/**
 * Context files (AGENTS.md / CLAUDE.md): instructions for the model, loaded at startup and on
 * reload. The agent dir's comes first, then one per directory from the filesystem root down to
 * cwd, so the closest file comes last and reads as the most specific. They are plain text the
 * model sees, not code, so they load whether or not the project is trusted.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ContextFile } from "./system-prompt.ts";

export type { ContextFile };

/** Per directory the first of these that can be read is used (upper-case ones: upstream 0.73.1). */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"] as const;

/** A context or prompt file that could not be read (resource discovery reports ResourceDiagnostic). */
export interface ContextFileDiagnostic {
  level: "warning" | "error";
  path: string;
  message: string;
}

export interface ContextFilesResult {
  files: ContextFile[];
  diagnostics: ContextFileDiagnostic[];
}

export interface ContextFilesOptions {
  cwd: string;
  agentDir: string;
  /** False for `--no-context-files` / `-nc`. */
  enabled?: boolean;
}

/** A file that exists but cannot be read is reported and the next candidate is tried. */
function fromDir(dir: string, diagnostics: ContextFileDiagnostic[]): ContextFile | undefined {
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      return { path, content: readFileSync(path, "utf8") };
    } catch (error) {
      diagnostics.push({ level: "warning", path, message: `Could not read ${path}: ${(error as Error).message}` });
    }
  }
  return undefined;
}

export function loadContextFiles(options: ContextFilesOptions): ContextFilesResult {
  const diagnostics: ContextFileDiagnostic[] = [];
  if (options.enabled === false) return { files: [], diagnostics };
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const add = (file: ContextFile | undefined): void => {
    if (!file || seen.has(file.path)) return;
    seen.add(file.path);
    files.push(file);
  };
  add(fromDir(resolve(options.agentDir), diagnostics));

  const chain: string[] = [];
  for (let dir = resolve(options.cwd); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of chain) add(fromDir(dir, diagnostics));
  return { files, diagnostics };
}
