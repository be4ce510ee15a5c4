/** `pig sessions tree`: the entry tree, indented at branch points, with the active path marked. */
import { describeRecord } from "../session/describe.ts";
import type { SessionStore } from "../session/store.ts";
import type { TreeNode } from "../session/tree.ts";
import type { Output } from "./output.ts";

export function writeTree(out: Output, store: SessionStore): void {
  // By record, not id: with an id used twice only the entry that owns it is on the branch.
  const active = new Set(store.branchRecords());
  const leaf = store.leafId === null ? undefined : store.tree.get(store.leafId);
  const links = store.tree.links();
  const dangling = new Set(links.dangling);
  const cuts = new Set(links.cycles.map((c) => c.cut));
  out.shown(`session ${store.sessionId}${store.name ? `  "${store.name}"` : ""}  ${store.path ?? ""}`);
  const walk = (nodes: TreeNode[], indent: string): void => {
    // A chain of only children stays at one indent; a branch point indents its children.
    let siblings = nodes;
    let pad = indent;
    for (;;) {
      if (siblings.length === 1) {
        const node = siblings[0]!;
        line(node, pad);
        siblings = node.children;
        continue;
      }
      siblings.forEach((node, index) => {
        const lastChild = index === siblings.length - 1;
        line(node, `${pad}${lastChild ? "└─ " : "├─ "}`);
        walk(node.children, `${pad}${lastChild ? "   " : "│  "}`);
      });
      return;
    }
  };
  const line = (node: TreeNode, prefix: string): void => {
    const record = node.record;
    const marker = active.has(record) ? "*" : " ";
    const label = node.label ? `  [${node.label}]` : "";
    const here = record === leaf ? "  ← leaf" : "";
    const damage = dangling.has(record)
      ? `  (parent ${record.parentId} missing)`
      : cuts.has(record)
        ? `  (parent cycle cut here; parent ${record.parentId})`
        : "";
    const what = describeRecord(record, store.readEntry);
    out.shown(`${marker} ${prefix}${record.id}  ${what}${label}${damage}${here}`);
  };
  walk(store.tree.toNodes(), "");
}
