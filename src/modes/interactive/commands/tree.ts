/**
 * Moving within the session tree: `/tree` (go to any entry, optionally summarising the branch
 * left behind), `/fork` (a new session from before a user message) and `/label`.
 */
import { describeRecord } from "../../../session/describe.ts";
import type { EntryRecord } from "../../../session/records.ts";
import type { SessionStore } from "../../../session/store.ts";
import type { TreeNode } from "../../../session/tree.ts";
import type { InteractiveHost, PickOption, SlashCommand } from "../host.ts";
import type { Theme } from "../theme.ts";
import { oneLine } from "./format.ts";
import { refuseWhileRunning } from "./guards.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

export interface TreeRow {
  id: string;
  /** Branch points above this entry (a straight chain stays at one depth). */
  depth: number;
  /** The connectors drawn before the entry ("│  ├─ "): where it hangs in the tree. */
  prefix: string;
  text: string;
  label?: string;
  onActivePath: boolean;
  /** A change of model, thinking level or name rather than part of the conversation. */
  isSettingChange: boolean;
}

// Labels are shown on the entries they name, not as entries of their own.
// Usage entries are bookkeeping of what was spent, not a place to go back to (as in Pi).
const isListed = (record: EntryRecord) => record.type !== "label" && record.type !== "usage";

const SETTING_CHANGES = new Set(["model_change", "thinking_level_change", "session_info", "context_edit"]);
const isSettingChange = (record: EntryRecord) => SETTING_CHANGES.has(record.type) || (record.type === "message" && record.role === "system");

/** The last listed entry of the active branch: where "you are" (a trailing label entry aside). */
export function currentEntryId(store: SessionStore): string | undefined {
  return store.branchRecords().filter(isListed).at(-1)?.id;
}

/** The listed nodes under `nodes`: an entry that is not listed gives way to its children. */
function listedNodes(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((node) => (isListed(node.record) ? [node] : listedNodes(node.children)));
}

interface Placed {
  node: TreeNode;
  depth: number;
  /** Drawn before this entry. */
  connector: string;
  /** Drawn before the entries under it (the bars of branches still to come). */
  indent: string;
}

/** Where the children of an entry go: a single child continues the chain, several branch off. */
function placeChildren(children: readonly TreeNode[], parent: Omit<Placed, "node">): Placed[] {
  if (children.length === 1) return [{ node: children[0]!, depth: parent.depth, connector: parent.indent, indent: parent.indent }];
  return children.map((node, i) => {
    const last = i === children.length - 1;
    return { node, depth: parent.depth + 1, connector: `${parent.indent}${last ? "└─ " : "├─ "}`, indent: `${parent.indent}${last ? "   " : "│  "}` };
  });
}

/** Every entry in tree order (depth first, children by time), with its place in the tree and description. */
export function treeRows(store: SessionStore): TreeRow[] {
  const active = new Set(store.branchRecords().map((r) => r.id));
  const rows: TreeRow[] = [];
  // Iterative, so a session with thousands of entries in one chain cannot overflow the stack.
  const stack = placeChildren(listedNodes(store.tree.toNodes()), { depth: 0, connector: "", indent: "" }).reverse();
  while (stack.length > 0) {
    const placed = stack.pop()!;
    const record = placed.node.record;
    rows.push({
      id: record.id,
      depth: placed.depth,
      prefix: placed.connector,
      text: describeRecord(record, store.readEntry),
      ...(placed.node.label ? { label: placed.node.label } : {}),
      onActivePath: active.has(record.id),
      isSettingChange: isSettingChange(record),
    });
    stack.push(...placeChildren(listedNodes(placed.node.children), placed).reverse());
  }
  return rows;
}

/** Branch levels drawn in full; deeper ones keep their last levels after an ellipsis. */
const MAX_LEVELS = 8;
const LEVEL_WIDTH = 3;

export function treeOption(row: TreeRow, currentId: string | undefined, theme?: Theme): PickOption<string> {
  const cap = MAX_LEVELS * LEVEL_WIDTH;
  const prefix = row.prefix.length > cap ? `…${row.prefix.slice(-cap)}` : row.prefix;
  const marker = row.onActivePath ? "•" : " ";
  // Entry texts and labels come from the session file.
  const label = row.label ? ` [${terminalSafe(row.label)}]` : "";
  const text = row.isSettingChange && theme ? theme.fg("dim", terminalSafe(row.text)) : terminalSafe(row.text);
  const hint = row.id === currentId ? "you are here" : undefined;
  return { value: row.id, label: `${marker} ${prefix}${text}${label}`, ...(hint ? { hint } : {}) };
}

type SummaryChoice = "none" | "summary" | "custom";

async function askSummary(host: InteractiveHost): Promise<{ summarize: boolean; customInstructions?: string } | undefined> {
  if (host.settings.settings.branchSummary?.skipPrompt) return { summarize: false };
  const choice = await host.pick<SummaryChoice>("Summarize the branch you are leaving?", [
    { value: "none", label: "No summary" },
    { value: "summary", label: "Summarize" },
    { value: "custom", label: "Summarize with custom instructions…" },
  ]);
  if (choice === undefined) return undefined;
  if (choice === "none") return { summarize: false };
  if (choice === "summary") return { summarize: true };
  const instructions = await host.ask("What should the summary focus on?");
  if (instructions === undefined) return undefined;
  return instructions.trim() ? { summarize: true, customInstructions: instructions.trim() } : { summarize: true };
}

export const treeCommand: SlashCommand = {
  name: "tree",
  description: "Go to another point of the session tree",
  async run(host) {
    if (refuseWhileRunning(host, "move in the tree")) return;
    const store = host.session.store;
    const rows = treeRows(store);
    if (rows.length === 0) {
      host.info("The session is empty.");
      return;
    }
    const currentId = currentEntryId(store);
    const target = await host.pick(
      "Go to (• marks the current branch)",
      rows.map((row) => treeOption(row, currentId, host.theme)),
      { search: true, ...(currentId ? { initial: currentId } : {}) },
    );
    if (target === undefined) return;
    if (target === currentId) {
      host.info("Already there.");
      return;
    }
    const summary = await askSummary(host);
    if (!summary) return;
    if (summary.summarize) host.info("Summarizing the branch you are leaving…");
    const result = await host.session.navigateTree(target, summary);
    if (result.cancelled) {
      host.warn("Summary cancelled; stayed where you were.");
      return;
    }
    if (result.editorText !== undefined) host.setEditorText(result.editorText);
  },
};

export const forkCommand: SlashCommand = {
  name: "fork",
  description: "Start a new session from before one of your messages",
  async run(host) {
    if (refuseWhileRunning(host, "fork")) return;
    const messages = host.session.forkMessages();
    if (messages.length === 0) {
      host.info("No messages to fork from yet.");
      return;
    }
    const active = new Set(host.session.store.branchRecords().map((r) => r.id));
    const entryId = await host.pick(
      "Fork from which message? (it comes back to the editor)",
      messages.map((m) => ({ value: m.entryId, label: oneLine(m.text), ...(active.has(m.entryId) ? {} : { hint: "other branch" }) })),
      { search: true, initial: messages.at(-1)!.entryId },
    );
    if (entryId === undefined) return;
    const { text, cancelled } = await host.session.fork(entryId);
    if (cancelled) return;
    host.setEditorText(text);
    host.info("Forked into a new session.");
  },
};

export const labelCommand: SlashCommand = {
  name: "label",
  description: "Label the current entry (no text clears the label)",
  argumentHint: "[text]",
  async run(host, args) {
    const target = currentEntryId(host.session.store);
    if (!target) {
      host.warn("Nothing to label yet.");
      return;
    }
    const label = args.trim();
    if (!label && !host.session.store.tree.labelOf(target)) {
      host.info("The current entry has no label to remove. Give a text to label it: /label <text>");
      return;
    }
    host.session.setLabel(target, label || undefined);
    host.info(label ? `Labelled: ${label}` : "Label cleared.");
  },
};
