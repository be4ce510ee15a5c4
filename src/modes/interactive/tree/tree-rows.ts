/**
 * The rows of `/tree` for a filter and a search: which entries show, which internal entries fold
 * into one row, and the connectors that draw the branches (`├─ `, `│  `, `└─ `). An entry that
 * does not show gives way to its children, which hang from its nearest ancestor that does.
 * Everything is worked out in one pass over the entries in tree order, never by recursion: a
 * session of thousands of entries in one chain is an ordinary session.
 */
import type { SessionStore } from "../../../session/store.ts";
import type { TreeNode } from "../../../session/tree.ts";
import type { EntryRecord } from "../../../session/records.ts";
import { matchesWords } from "../commands/format.ts";
import { callsOf, describeForTree, type CallMade, type EntryKind, type EntryView } from "./entry-view.ts";

/** Which entries the tree shows. */
export type TreeFilter = "default" | "no-tools" | "user" | "labelled" | "all";

/** In the order the filter key cycles through them. */
export const TREE_FILTERS: readonly TreeFilter[] = ["default", "no-tools", "user", "labelled", "all"];

export const FILTER_NAMES: Readonly<Record<TreeFilter, string>> = {
  default: "conversation",
  "no-tools": "no tool results",
  user: "user messages",
  labelled: "labelled",
  all: "all entries",
};

/** The filter `/tree` opens with, from the setting `treeFilterMode` (upstream's names for the same five). */
export const FILTER_OF_SETTING: Readonly<Record<"default" | "no-tools" | "user-only" | "labeled-only" | "all", TreeFilter>> = {
  default: "default",
  "no-tools": "no-tools",
  "user-only": "user",
  "labeled-only": "labelled",
  all: "all",
};

/** One entry of the session as the tree knows it, in tree order (depth first, children by time). */
export interface TreeEntry {
  id: string;
  /** The nearest ancestor the tree lists (labels and usage entries are not listed). */
  parentId: string | undefined;
  children: number;
  view: EntryView;
  label?: string;
  onActivePath: boolean;
  /** A failed answer the next answer retried: internal, as model changes are. */
  retried: boolean;
}

export interface SessionTreeModel {
  entries: TreeEntry[];
  /** Where "you are": the last listed entry of the active branch. */
  currentId: string | undefined;
}

export interface TreeRow {
  /** The entry going to this row goes to (for a fold, its last entry). */
  id: string;
  kind: EntryKind | "fold";
  text: string;
  failed: boolean;
  label?: string;
  onActivePath: boolean;
  /** The connectors drawn before the row: where it hangs in the tree. */
  prefix: string;
  /** The first row of a branch (its parent has several children shown). */
  branchStart: boolean;
}

export interface TreeLayout {
  rows: TreeRow[];
  /** The row that stands for an entry: its own, its fold's, or its nearest shown ancestor's. */
  rowOf(entryId: string): number | undefined;
}

// Labels are shown on the entries they name, not as entries of their own; usage entries are
// bookkeeping of what was spent, not a place to go back to (as in Pi).
const isListed = (record: EntryRecord) => record.type !== "label" && record.type !== "usage";

function listedNodes(nodes: readonly TreeNode[]): TreeNode[] {
  const listed: TreeNode[] = [];
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isListed(node.record)) listed.push(node);
    else stack.push(...[...node.children].reverse());
  }
  return listed;
}

/** The last listed entry of the active branch (a trailing label entry aside). */
export function currentEntryId(store: SessionStore): string | undefined {
  return store.branchRecords().filter(isListed).at(-1)?.id;
}

/** Every listed entry of the session, described, in tree order. */
export function readSessionTree(store: SessionStore): SessionTreeModel {
  const active = new Set(store.branchRecords().map((r) => r.id));
  const calls = new Map<string, CallMade>();
  const entries: TreeEntry[] = [];
  const stack: { node: TreeNode; parentId: string | undefined }[] = listedNodes(store.tree.toNodes())
    .reverse()
    .map((node) => ({ node, parentId: undefined }));
  while (stack.length > 0) {
    const { node, parentId } = stack.pop()!;
    const record = node.record;
    const entry = store.readEntry(record);
    // A result comes after the answer that made its call: the calls are known by then.
    if (entry) for (const [id, call] of callsOf(entry)) calls.set(id, call);
    const children = listedNodes(node.children);
    entries.push({
      id: record.id,
      parentId,
      children: children.length,
      view: describeForTree(record, store.readEntry, calls),
      ...(node.label ? { label: node.label } : {}),
      onActivePath: active.has(record.id),
      retried: false,
    });
    stack.push(...children.reverse().map((child) => ({ node: child, parentId: record.id })));
  }
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const entry of entries) {
    const parent = entry.parentId === undefined ? undefined : byId.get(entry.parentId);
    if (parent && parent.view.kind === "assistant" && parent.view.failed && parent.children === 1 && entry.view.kind === "assistant") parent.retried = true;
  }
  return { entries, currentId: currentEntryId(store) };
}

const isInternal = (entry: TreeEntry) => entry.view.kind === "internal" || entry.retried;

function shownAlone(entry: TreeEntry, filter: TreeFilter, currentId: string | undefined): boolean {
  if (filter === "user") return entry.view.kind === "user";
  if (filter === "labelled") return entry.label !== undefined;
  if (filter === "all") return true;
  if (filter === "no-tools" && entry.view.kind === "tool") return false;
  // Where you are shows even when it is an answer of tool calls only.
  return !entry.view.callsOnly || entry.id === currentId;
}

/** A row before it is placed: the entries it stands for. */
interface Candidate {
  key: string;
  members: TreeEntry[];
}

function rowText(candidate: Candidate, folding: boolean): { kind: EntryKind | "fold"; text: string } {
  const only = candidate.members.length === 1 ? candidate.members[0]! : undefined;
  if (only && (!folding || !isInternal(only))) return only.view;
  const retries = candidate.members.filter((m) => m.retried).length;
  const changes = candidate.members.filter((m) => !m.retried).map((m) => m.view.text);
  if (retries > 0) changes.push(retries === 1 ? "a failed attempt, retried" : `${retries} failed attempts, retried`);
  return { kind: "fold", text: changes.join(" · ") };
}

export function layoutTree(model: SessionTreeModel, filter: TreeFilter, search = ""): TreeLayout {
  const folding = filter === "default" || filter === "no-tools";
  const byId = new Map(model.entries.map((e) => [e.id, e]));

  // Which row each entry belongs to: internal entries in a chain share one (folded) row.
  const candidates: Candidate[] = [];
  const candidateOf = new Map<string, Candidate>();
  for (const entry of model.entries) {
    const parent = entry.parentId === undefined ? undefined : byId.get(entry.parentId);
    const parentFold = parent && candidateOf.get(parent.id);
    if (folding && isInternal(entry) && parent && isInternal(parent) && parent.children === 1 && parentFold) {
      parentFold.members.push(entry);
      candidateOf.set(entry.id, parentFold);
      continue;
    }
    const candidate = { key: entry.id, members: [entry] };
    candidates.push(candidate);
    candidateOf.set(entry.id, candidate);
  }

  const shown = new Map<Candidate, Omit<TreeRow, "prefix" | "branchStart">>();
  for (const candidate of candidates) {
    const first = candidate.members[0]!;
    const visible = folding && isInternal(first) ? true : shownAlone(first, filter, model.currentId);
    if (!visible) continue;
    const { kind, text } = rowText(candidate, folding);
    const label = candidate.members.findLast((m) => m.label !== undefined)?.label;
    if (search && !matchesWords(search, `${label ?? ""} ${text}`)) continue;
    shown.set(candidate, {
      id: candidate.members.at(-1)!.id,
      kind,
      text,
      failed: candidate.members.some((m) => m.view.failed && !(folding && m.retried)),
      ...(label !== undefined ? { label } : {}),
      onActivePath: candidate.members.some((m) => m.onActivePath),
    });
  }

  // The shown row standing for each entry; each shown row's parent among the shown rows.
  const standsFor = new Map<string, Candidate | undefined>();
  const parentOf = new Map<Candidate, Candidate | undefined>();
  for (const entry of model.entries) {
    const own = candidateOf.get(entry.id)!;
    const above = entry.parentId === undefined ? undefined : standsFor.get(entry.parentId);
    if (shown.has(own)) {
      if (own.members[0] === entry) parentOf.set(own, above);
      standsFor.set(entry.id, own);
    } else {
      standsFor.set(entry.id, above);
    }
  }

  const childrenOf = new Map<Candidate | undefined, Candidate[]>();
  for (const candidate of shown.keys()) {
    const parent = parentOf.get(candidate);
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(candidate);
    childrenOf.set(parent, siblings);
  }

  // Parents come before their children in tree order: their indent is known when a child is placed.
  const indentOf = new Map<Candidate | undefined, string>([[undefined, ""]]);
  const rows: TreeRow[] = [];
  const indexOf = new Map<Candidate, number>();
  for (const [candidate, row] of shown) {
    const parent = parentOf.get(candidate);
    const siblings = childrenOf.get(parent)!;
    const indent = indentOf.get(parent) ?? "";
    let prefix = indent;
    if (siblings.length > 1) {
      const last = siblings.at(-1) === candidate;
      prefix = `${indent}${last ? "└─ " : "├─ "}`;
      indentOf.set(candidate, `${indent}${last ? "   " : "│  "}`);
    } else {
      indentOf.set(candidate, indent);
    }
    indexOf.set(candidate, rows.length);
    rows.push({ ...row, prefix, branchStart: siblings.length > 1 });
  }

  return {
    rows,
    rowOf(entryId) {
      const candidate = standsFor.get(entryId);
      return candidate ? indexOf.get(candidate) : undefined;
    },
  };
}
