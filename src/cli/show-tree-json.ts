/**
 * `pig sessions tree --json`: the session's entry tree for a script. The entries are one flat
 * list in the order the text tree shows them (depth first, children oldest first), each naming
 * its children by id — not nested, as a session of thousands of entries in one chain would be
 * thousands of levels deep, past what JSON tools such as jq parse. The shape is
 * `SessionTreeJsonSchema`, documented in docs/sessions.md.
 */
import * as v from "valibot";
import { describeRecord } from "../session/describe.ts";
import type { EntryRecord } from "../session/records.ts";
import type { SessionStore } from "../session/store.ts";
import type { TreeNode } from "../session/tree.ts";
import type { Output } from "./output.ts";

const TreeEntryJsonSchema = v.strictObject({
  id: v.string(),
  /** null for a root written as such; a missing key in the file reads as null too. */
  parentId: v.nullable(v.string()),
  type: v.string(),
  /** A message entry's role. */
  role: v.optional(v.string()),
  timestamp: v.string(),
  /** The file's line the entry is on (1 is the header): tells two entries of one id apart in a damaged file. */
  line: v.pipe(v.number(), v.integer(), v.minValue(2)),
  /** One line about the entry: its kind and the first line of its text, as the text tree shows it. */
  preview: v.string(),
  label: v.optional(v.string()),
  labelTimestamp: v.optional(v.string()),
  /** On the active branch (the path from a root to the leaf). */
  active: v.boolean(),
  /** Ids of the entries whose parent this is, oldest first. */
  children: v.array(v.string()),
  /** Why a damaged entry is a root: its parent is missing, or a parent cycle was cut here. */
  problem: v.optional(v.picklist(["parent-missing", "parent-cycle-cut"])),
});

export const SessionTreeJsonSchema = v.strictObject({
  id: v.string(),
  path: v.nullable(v.string()),
  name: v.nullable(v.string()),
  /** The entry the next one is appended to; null in a session with no entries. */
  leafId: v.nullable(v.string()),
  /** The active branch's ids, root first, leaf last. */
  activePath: v.array(v.string()),
  /** The ids of the entries with no parent (several in a damaged file). */
  roots: v.array(v.string()),
  entries: v.array(TreeEntryJsonSchema),
});

export type TreeEntryJson = v.InferOutput<typeof TreeEntryJsonSchema>;
export type SessionTreeJson = v.InferOutput<typeof SessionTreeJsonSchema>;

/** The tree of `store` as `SessionTreeJsonSchema` describes it. */
export function sessionTreeJson(store: SessionStore): SessionTreeJson {
  const branch = store.branchRecords();
  // By record, not id: with an id used twice only the entry that owns it is on the branch.
  const active = new Set(branch);
  const links = store.tree.links();
  const dangling = new Set(links.dangling);
  const cuts = new Set(links.cycles.map((c) => c.cut));
  const problem = (record: EntryRecord): TreeEntryJson["problem"] =>
    dangling.has(record) ? "parent-missing" : cuts.has(record) ? "parent-cycle-cut" : undefined;
  const entry = (node: TreeNode): TreeEntryJson => {
    const { record } = node;
    const damage = problem(record);
    return {
      id: record.id,
      parentId: record.parentId ?? null,
      type: record.type,
      ...(record.role !== undefined ? { role: record.role } : {}),
      timestamp: record.timestamp,
      line: record.line,
      preview: describeRecord(record, store.readEntry),
      ...(node.label !== undefined ? { label: node.label } : {}),
      ...(node.labelTimestamp !== undefined ? { labelTimestamp: node.labelTimestamp } : {}),
      active: active.has(record),
      children: node.children.map((child) => child.record.id),
      ...(damage ? { problem: damage } : {}),
    };
  };
  const roots = store.tree.toNodes();
  const entries: TreeEntryJson[] = [];
  // Depth first with a stack of its own: a long chain is as deep as the session is long.
  const stack = [...roots].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    entries.push(entry(node));
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return {
    id: store.sessionId,
    path: store.path ?? null,
    name: store.name ?? null,
    leafId: store.leafId,
    activePath: branch.map((record) => record.id),
    roots: roots.map((node) => node.record.id),
    entries,
  };
}

export function writeTreeJson(out: Output, store: SessionStore): void {
  out.line(JSON.stringify(sessionTreeJson(store), null, 2));
}
