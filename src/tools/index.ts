/**
 * The built-in tools and which of them a session turns on. `--tools` is an allowlist in the
 * order given; unlike upstream (which ignores unknown names silently) pig reports them.
 */
import { bashTool, type BashToolOptions } from "./bash.ts";
import { editTool } from "./edit.ts";
import { findTool } from "./find.ts";
import { grepTool, type SearchToolOptions } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { powershellTool, type PowerShellToolOptions } from "./powershell.ts";
import type { ExportedCall, ExportedResult, ToolPresentation } from "./presentation.ts";
import { readTool, type ReadToolOptions } from "./read.ts";
import type { AnyTool } from "./types.ts";
import { writeTool } from "./write.ts";

export { killRunningCommands, resolveShell, runShell, shellEnv } from "./shell.ts";
export { validateToolArguments, type ValidationOutcome } from "./validate.ts";
export type { BashToolOptions, ReadToolOptions, SearchToolOptions };

export type BuiltinToolOptions = BashToolOptions & PowerShellToolOptions & ReadToolOptions & SearchToolOptions;

/** Every built-in tool, in the order `--tools` lists them. A new built-in is its file and a line here. */
const BUILTIN_TOOLS = [readTool, bashTool, editTool, writeTool, grepTool, findTool, lsTool, powershellTool] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOLS)[number]["name"];
export const ALL_TOOL_NAMES: readonly BuiltinToolName[] = BUILTIN_TOOLS.map((tool) => tool.name);

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (ALL_TOOL_NAMES as readonly string[]).includes(name);
}
export const DEFAULT_ACTIVE_TOOLS: readonly BuiltinToolName[] = ["read", "bash", "edit", "write"];

/** The tools on by default: on Windows `powershell` takes the place of `bash`. */
export function defaultActiveTools(platform: string = process.platform): readonly BuiltinToolName[] {
  return platform === "win32" ? DEFAULT_ACTIVE_TOOLS.map((name) => (name === "bash" ? "powershell" : name)) : DEFAULT_ACTIVE_TOOLS;
}

/**
 * How the built-in tool of this name shows its calls and results, whoever runs the tool (an
 * extension's tool of the same name takes over the name, and with it the presentation).
 */
export function builtinPresentation(name: string): ToolPresentation | undefined {
  return BUILTIN_TOOLS.find((tool) => tool.name === name)?.presentation;
}

/** A call as the export draws it, for the built-in tool of that name; undefined for other tools. */
export function presentBuiltinCall(name: string, args: Record<string, unknown>, result: ExportedResult | undefined): ExportedCall | undefined {
  return builtinPresentation(name)?.exportCall?.(args, result);
}

export function createBuiltinTools(options: BuiltinToolOptions = {}): Record<BuiltinToolName, AnyTool> {
  // fromEntries cannot know that the keys are exactly the names; BUILTIN_TOOLS lists each once.
  return Object.fromEntries(BUILTIN_TOOLS.map((tool) => [tool.name, tool.create(options)])) as Record<BuiltinToolName, AnyTool>;
}

export interface ToolSelectionOptions {
  /** Where `tools` came from, for warnings: "--tools" (default) or the setting's name. */
  toolsSource?: string;
  /** Allowlist (`--tools`); order is kept. Undefined means the defaults. */
  tools?: readonly string[];
  /** `--no-tools`: nothing at all. */
  noTools?: boolean;
  /** Names to drop after the allowlist/defaults are applied. */
  exclude?: readonly string[];
  /** Whose defaults apply (`process.platform` unless given): win32 has powershell instead of bash. */
  platform?: string;
}

export interface ToolSelection {
  tools: AnyTool[];
  warnings: string[];
}

/**
 * Picks the active tools from `available` (built-ins and any others keyed by name). Without an
 * allowlist the defaults are the four built-in editing tools plus every non-built-in tool.
 */
export function selectTools(available: Readonly<Record<string, AnyTool>>, options: ToolSelectionOptions = {}): ToolSelection {
  if (options.noTools) return { tools: [], warnings: [] };
  const known = Object.keys(available);
  const warnings: string[] = [];
  const unknown = (name: string, flag: string) =>
    warnings.push(`Unknown tool "${name}" in ${flag} (available: ${known.join(", ")})`);

  let names: string[];
  if (options.tools) {
    names = [];
    for (const name of options.tools) {
      // MCP tools arrive once their servers connect; the registry applies these entries then.
      if (name.startsWith("mcp__")) continue;
      if (!(name in available)) unknown(name, options.toolsSource ?? "--tools");
      else if (!names.includes(name)) names.push(name);
    }
  } else {
    const builtins: readonly string[] = ALL_TOOL_NAMES;
    const defaults: readonly string[] = defaultActiveTools(options.platform);
    names = known.filter((name) => !builtins.includes(name) || defaults.includes(name));
    names.sort((a, b) => order(a, defaults) - order(b, defaults));
  }
  for (const name of options.exclude ?? []) {
    if (!(name in available) && !name.startsWith("mcp__")) unknown(name, "the exclude list");
  }
  const excluded = new Set(options.exclude ?? []);
  return { tools: names.filter((name) => !excluded.has(name)).map((name) => available[name] as AnyTool), warnings };
}

/** The default built-ins first in their order (powershell where bash would be), then the rest as given. */
function order(name: string, defaults: readonly string[]): number {
  const index = defaults.indexOf(name);
  return index === -1 ? defaults.length : index;
}
