/** Commands that only print: `/session` (where and how big the session is) and `/hotkeys`. */
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { formatTokens } from "./format.ts";

export function sessionReport(host: InteractiveHost): string[] {
  const { controller } = host;
  const store = controller.session.store;
  const stats = controller.stats();
  const model = controller.session.model;
  const lines: string[] = [];
  if (store.name) lines.push(`Name:      ${store.name}`);
  lines.push(`File:      ${store.path ?? "(in memory, not saved)"}`);
  if (store.path && !store.isFlushed) lines.push("           (written once the first answer arrives)");
  lines.push(`ID:        ${stats.sessionId}`);
  lines.push(`Entries:   ${store.tree.records.length}`);
  lines.push(
    `Messages:  ${stats.totalMessages} (${stats.userMessages} user, ${stats.assistantMessages} assistant, ` +
      `${stats.toolCalls} tool calls, ${stats.toolResults} tool results)`,
  );
  const t = stats.tokens;
  lines.push(
    `Tokens:    ${formatTokens(t.total)} total (${formatTokens(t.input)} in, ${formatTokens(t.output)} out, ` +
      `${formatTokens(t.cacheRead)} cache read, ${formatTokens(t.cacheWrite)} cache write)`,
  );
  lines.push(`Cost:      $${stats.cost.toFixed(4)}`);
  const usage = stats.contextUsage;
  if (usage) {
    const used = usage.tokens === null ? "unknown" : formatTokens(usage.tokens);
    const percent = usage.percent === null ? "" : ` (${usage.percent.toFixed(1)}%)`;
    lines.push(`Context:   ${used} of ${formatTokens(usage.contextWindow)}${percent}`);
  }
  if (model) lines.push(`Model:     ${model.provider}/${model.id} (thinking: ${controller.session.thinkingLevel})`);
  return lines;
}

export const sessionCommand: SlashCommand = {
  name: "session",
  description: "Show the session's file, id, size, tokens and cost",
  async run(host) {
    host.print(sessionReport(host).join("\n"));
  },
};

export const HOTKEYS: readonly (readonly [string, string])[] = [
  ["Enter", "send; while the agent runs: steer (delivered after the current tool)"],
  ["Alt+Enter", "while the agent runs: queue a follow-up (delivered when it is done)"],
  ["Shift+Enter", "new line"],
  ["Escape", "abort the agent (queued messages come back to the editor)"],
  ["Ctrl+C", "clear the editor; twice quickly to quit"],
  ["Ctrl+D", "quit (when the editor is empty)"],
  ["Ctrl+L", "choose a model"],
  ["Ctrl+P", "next model"],
  ["Shift+Tab", "next thinking level"],
  ["Ctrl+T", "show or hide thinking"],
  ["Ctrl+O", "expand the last tool output"],
  ["Alt+Up", "pull queued messages back into the editor"],
  ["Ctrl+G", "edit the message in $VISUAL / $EDITOR"],
  ["Tab", "complete commands and paths"],
  ["@", "mention a file (its path is completed)"],
  ["!command", "run a shell command; its output goes to the agent"],
  ["!!command", "run a shell command without sending its output"],
  ["/", "commands (/hotkeys, /model, /settings, /resume, /tree, …)"],
];

export const hotkeysCommand: SlashCommand = {
  name: "hotkeys",
  description: "Show keyboard shortcuts",
  async run(host) {
    const width = Math.max(...HOTKEYS.map(([key]) => key.length));
    host.print(HOTKEYS.map(([key, what]) => `${host.theme.fg("accent", key.padEnd(width))}  ${what}`).join("\n"));
  },
};
