/** Commands that only print: `/session` (where and how big the session is) and `/hotkeys`. */
import type { InteractiveHost, SlashCommand } from "../host.ts";
import type { KeyAction, KeyBindings } from "../input/keybindings.ts";
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

/** What each bindable action does, in words, in the order `/hotkeys` lists them. */
const ACTION_WORDS: readonly (readonly [KeyAction, string])[] = [
  ["tui.input.submit", "send; while the agent runs: steer (delivered after the current tool)"],
  ["app.message.followUp", "while the agent runs: queue a follow-up (delivered when it is done)"],
  ["tui.input.newLine", "new line"],
  ["app.interrupt", "abort the agent (queued messages come back to the editor)"],
  ["app.clear", "clear the editor; twice quickly to quit"],
  ["app.exit", "quit (when the editor is empty)"],
  ["app.suspend", "suspend pig to the shell (fg brings it back)"],
  ["app.model.select", "choose a model"],
  ["app.model.cycleForward", "next model"],
  ["app.model.cycleBackward", "previous model"],
  ["app.thinking.cycle", "next thinking level"],
  ["app.thinking.toggle", "show or hide thinking"],
  ["app.tools.expand", "expand the last tool output"],
  ["app.message.dequeue", "pull queued messages back into the editor"],
  ["app.editor.external", "edit the message in $VISUAL / $EDITOR"],
  ["tui.input.tab", "complete commands and paths"],
];

const OTHER_KEYS: readonly (readonly [string, string])[] = [
  ["@", "mention a file (its path is completed)"],
  ["!command", "run a shell command; its output goes to the agent"],
  ["!!command", "run a shell command without sending its output"],
  ["/", "commands: a list opens as you type (/help lists them all)"],
  ["//text", "send text that starts with a slash (one slash is sent)"],
];

const KEY_LABELS: Readonly<Record<string, string>> = { pageup: "PageUp", pagedown: "PageDown" };

/** "ctrl+shift+p" as people write it: "Ctrl+Shift+P". */
export function keyLabel(key: string): string {
  const parts = key.endsWith("++") ? [...key.slice(0, -2).split("+"), "+"] : key.split("+");
  return parts.map((part) => KEY_LABELS[part] ?? part.charAt(0).toUpperCase() + part.slice(1)).join("+");
}

/** The rows of `/hotkeys` under the bindings in force: the keys of each action, then the typed prefixes. */
export function hotkeyRows(bindings: KeyBindings): [string, string][] {
  const rows: [string, string][] = [];
  for (const [action, words] of ACTION_WORDS) {
    const keys = bindings.keysFor(action);
    rows.push([keys.length > 0 ? keys.map(keyLabel).join(" / ") : "(unbound)", words]);
  }
  return [...rows, ...OTHER_KEYS.map(([k, w]) => [k, w] as [string, string])];
}

export const hotkeysCommand: SlashCommand = {
  name: "hotkeys",
  description: "Show keyboard shortcuts",
  async run(host) {
    const rows = hotkeyRows(host.keybindings);
    const width = Math.max(...rows.map(([key]) => key.length));
    host.print(rows.map(([key, what]) => `${host.theme.fg("accent", key.padEnd(width))}  ${what}`).join("\n"));
  },
};
