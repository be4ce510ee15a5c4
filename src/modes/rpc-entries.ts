/**
 * RPC `get_entries` and `get_tree`: the session's entries as stored, in file order or as a tree,
 * in upstream Pi's shapes. Read from the session store, never written.
 */
import { PromptError } from "../agent/errors.ts";
import type { SessionEntry } from "../session/format.ts";
import type { EntryRecord } from "../session/records.ts";
import type { SessionStore } from "../session/store.ts";
import type { TreeNode } from "../session/tree.ts";

export interface WireTreeNode {
  entry: SessionEntry;
  children: WireTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/**
 * The entry of a record. A line that can no longer be read back (the file changed under pig)
 * stands in as its bare link, so ids and parents still add up.
 */
function entryOf(store: SessionStore, record: EntryRecord): SessionEntry {
  return store.readEntry(record) ?? ({ type: record.type, id: record.id, parentId: record.parentId ?? null, timestamp: record.timestamp } as SessionEntry);
}

/**
 * Every entry in file order (the header left out), or only those after the entry `since`: an
 * id works as a cursor that survives restarts. An unknown `since` is an error.
 */
export function sessionEntries(store: SessionStore, since?: string): { entries: SessionEntry[]; leafId: string | null } {
  let records = store.tree.records;
  if (since !== undefined) {
    const at = records.findIndex((record) => record.id === since);
    if (at < 0) throw new PromptError(`Entry not found: ${since}`);
    records = records.slice(at + 1);
  }
  return { entries: records.map((record) => entryOf(store, record)), leafId: store.leafId };
}

/** The whole tree, every entry once, with the label each entry carries now. */
export function sessionTree(store: SessionStore): { tree: WireTreeNode[]; leafId: string | null } {
  // Deep sessions are deep trees: built without recursion.
  const convert = (root: TreeNode): WireTreeNode => {
    const made = new Map<TreeNode, WireTreeNode>();
    const stack: TreeNode[] = [root];
    const order: TreeNode[] = [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      order.push(node);
      made.set(node, {
        entry: entryOf(store, node.record),
        children: [],
        ...(node.label !== undefined ? { label: node.label } : {}),
        ...(node.labelTimestamp !== undefined ? { labelTimestamp: node.labelTimestamp } : {}),
      });
      stack.push(...node.children);
    }
    for (const node of order) made.get(node)!.children.push(...node.children.map((child) => made.get(child)!));
    return made.get(root)!;
  };
  return { tree: store.tree.toNodes().map(convert), leafId: store.leafId };
}
