/**
 * OAuth (Claude subscription tokens): such a request identifies as Claude Code, and tools that
 * share a name with Claude Code's are sent in its casing (and mapped back in the answer).
 */
import type { ToolSpec } from "../types.ts";

export const CLAUDE_CODE_VERSION = "2.1.280";
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
/** Claude Code's tool names; with an OAuth token, same-named tools are sent in this casing. */
const CLAUDE_CODE_TOOLS = [
  "Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode",
  "KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite", "WebFetch", "WebSearch",
];
const CLAUDE_CODE_TOOL_BY_LOWER = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

export function isOAuthToken(apiKey: string): boolean {
  return apiKey.includes("sk-ant-oat");
}

export function toClaudeCodeName(name: string): string {
  return CLAUDE_CODE_TOOL_BY_LOWER.get(name.toLowerCase()) ?? name;
}

export function fromClaudeCodeName(name: string, tools: readonly ToolSpec[] | undefined): string {
  const lower = name.toLowerCase();
  return tools?.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}
