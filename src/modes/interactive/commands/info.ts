/** Commands that only print: `/session` (where and how big the session is) and `/hotkeys`. */
import type { InteractiveHost, SlashCommand } from "../host.ts";
import type { KeyAction, KeyBindings } from "../input/keybindings.ts";
import { formatTokens } from "./format.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";
import { costByModel } from "../../../agent/session-stats.ts";
import { isVirtualModel } from "../../../ai/virtual-models.ts";
import { about } from "./about.ts";

/** What one message of each role is called in `/session`, singular and plural. */
const ROLE_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  user: ["user", "user"],
  // The system messages that declare the prompt and tools (Pi 0.87's format).
  system: ["prompt message", "prompt messages"],
  assistant: ["assistant", "assistant"],
  toolResult: ["tool result", "tool results"],
  bashExecution: ["shell command", "shell commands"],
  custom: ["extension message", "extension messages"],
  branchSummary: ["branch summary", "branch summaries"],
  compactionSummary: ["compaction summary", "compaction summaries"],
};

/**
 * The messages of the session by kind, in the order they are named, every message counted once
 * (so the parts add up to the total). User and assistant are always named; the rest when present.
 */
export function messageBreakdown(messages: readonly { role: string }[]): string[] {
  const counts = new Map<string, number>([["user", 0], ["assistant", 0]]);
  for (const { role } of messages) counts.set(role, (counts.get(role) ?? 0) + 1);
  const known = Object.keys(ROLE_WORDS);
  const order = [...known, ...[...counts.keys()].filter((role) => !known.includes(role))];
  return order
    .filter((role) => counts.has(role))
    .map((role) => {
      const n = counts.get(role)!;
      const [one, many] = ROLE_WORDS[role] ?? [role, role];
      return `${n} ${n === 1 ? one : many}`;
    });
}

const LABEL_WIDTH = 12;
const field = (label: string, value: string) => `${`${label}:`.padEnd(LABEL_WIDTH)}${value}`;

export function sessionReport(host: InteractiveHost): string[] {
  const { session } = host;
  const store = session.store;
  const stats = session.stats();
  const model = session.model;
  // Every message of the file, as the token totals below count every answer (Pi 0.87's totals).
  const messages = store.tree.records.flatMap((r) => (r.type === "message" ? [{ role: r.role ?? "unknown" }] : []));
  const lines: string[] = [];
  if (store.name) lines.push(field("Name", terminalSafe(store.name)));
  lines.push(field("File", store.path ?? "(in memory, not saved)"));
  if (store.path && !store.isFlushed) lines.push(`${" ".repeat(LABEL_WIDTH)}(written once the first answer arrives)`);
  lines.push(field("ID", stats.sessionId));
  lines.push(field("Entries", String(store.tree.records.length)));
  lines.push(field("Messages", `${messages.length} (${messageBreakdown(messages).join(", ")})`));
  // Calls are parts of assistant messages, not messages: on their own line, so the sum above holds.
  lines.push(field("Tool calls", String(stats.toolCalls)));
  const t = stats.tokens;
  lines.push(
    field(
      "Tokens",
      `${formatTokens(t.total)} total (${formatTokens(t.input)} in, ${formatTokens(t.output)} out, ` +
        `${formatTokens(t.cacheRead)} cache read, ${formatTokens(t.cacheWrite)} cache write)`,
    ),
  );
  lines.push(field("Cost", `$${stats.cost.toFixed(4)}`));
  // A virtual model's answers come from the models it routed to: each one's share (upstream's /session).
  if (model && isVirtualModel(model)) {
    for (const [name, cost] of costByModel(store.tree.records, store.readEntry)) lines.push(`${" ".repeat(LABEL_WIDTH)}${terminalSafe(name)} $${cost.toFixed(4)}`);
  }
  const usage = stats.contextUsage;
  if (usage) {
    const used = usage.tokens === null ? "unknown" : formatTokens(usage.tokens);
    const percent = usage.percent === null ? "" : ` (${usage.percent.toFixed(1)}%)`;
    lines.push(field("Context", `${used} of ${formatTokens(usage.contextWindow)}${percent}`));
  }
  if (model) lines.push(field("Model", `${model.provider}/${model.id} (thinking: ${session.thinkingLevel})`));
  return lines;
}

export const sessionCommand: SlashCommand = {
  ...about("session"),
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
  ["app.clear", "clear the editor; twice quickly to quit; while the agent runs: stop it (again to quit)"],
  ["app.exit", "quit (when the editor is empty)"],
  ["app.suspend", "suspend pig to the shell (fg brings it back)"],
  ["app.model.select", "choose a model"],
  ["app.model.cycleForward", "next model"],
  ["app.model.cycleBackward", "previous model"],
  ["app.thinking.cycle", "next thinking level"],
  ["app.thinking.toggle", "show or hide thinking"],
  ["app.tools.expand", "show the last tool result in full"],
  ["app.tools.toggleAll", "collapse or expand every tool result (the conversation is printed again)"],
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
  ...about("hotkeys"),
  async run(host) {
    const extension = (host.extensionShortcuts?.() ?? []).map(([key, what]): [string, string] => [key, `${what} (extension)`]);
    const rows = [...hotkeyRows(host.keybindings), ...extension];
    const width = Math.max(...rows.map(([key]) => key.length));
    host.print(rows.map(([key, what]) => `${host.theme.fg("accent", key.padEnd(width))}  ${what}`).join("\n"));
  },
};
