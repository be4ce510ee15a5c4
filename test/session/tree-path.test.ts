/**
 * SessionTree.pathTo remembers the path it gave last: asked again, or for an entry appended
 * below it, it answers without walking. Every answer must equal a fresh walk of the tree.
 */
import { expect, test } from "bun:test";
import type { EntryRecord } from "../../src/session/records.ts";
import { SessionTree } from "../../src/session/tree.ts";

let line = 1;
const rec = (id: string, parentId: string | null): EntryRecord => ({
  line: line++,
  type: "message",
  id,
  parentId,
  timestamp: "2026-01-01T00:00:00.000Z",
  source: { kind: "text", text: "{}" },
});
const ids = (path: readonly EntryRecord[]) => path.map((r) => r.id);
// What a tree made afresh from the same records answers: the walk, without anything remembered.
const fresh = (tree: SessionTree, id: string | null) => ids(new SessionTree(tree.records).pathTo(id));

test("asked again, or for an appended child, the path equals a fresh walk", () => {
  const tree = new SessionTree([rec("a", null), rec("b", "a"), rec("c", "b")]);
  expect(ids(tree.pathTo("c"))).toEqual(["a", "b", "c"]);
  const first = tree.pathTo("c");
  first.pop(); // a caller's copy: changing it changes nothing remembered
  expect(ids(tree.pathTo("c"))).toEqual(["a", "b", "c"]);
  for (const [id, parent] of [["d", "c"], ["e", "d"], ["f", "e"]] as const) {
    tree.add(rec(id, parent));
    expect(ids(tree.pathTo(id))).toEqual(fresh(tree, id));
  }
  expect(ids(tree.pathTo("f"))).toEqual(["a", "b", "c", "d", "e", "f"]);
  // A branch off the middle, then back.
  tree.add(rec("x", "b"));
  expect(ids(tree.pathTo("x"))).toEqual(["a", "b", "x"]);
  expect(ids(tree.pathTo("f"))).toEqual(fresh(tree, "f"));
  expect(tree.pathTo(null)).toEqual([]);
});

test("a replaced record, a taken-back record and a reused id show in the next path", () => {
  const tree = new SessionTree([rec("a", null), rec("b", "a")]);
  expect(ids(tree.pathTo("b"))).toEqual(["a", "b"]);
  const old = tree.get("b")!;
  const updated = { ...old, line: 99 };
  tree.replace(old, updated);
  expect(tree.pathTo("b")[1]).toBe(updated);
  const c = rec("c", "b");
  tree.add(c);
  expect(ids(tree.pathTo("c"))).toEqual(["a", "b", "c"]);
  tree.removeLast(c);
  expect(ids(tree.pathTo("c"))).toEqual([]);
  // An entry reusing "b" (a damaged file) now stands for it: paths through "b" follow it.
  tree.add(rec("b", null));
  expect(ids(tree.pathTo("b"))).toEqual(fresh(tree, "b"));
  expect(ids(tree.pathTo("b"))).toEqual(["b"]);
});

test("an appended entry whose id is already on the path is walked, not appended in a loop", () => {
  const tree = new SessionTree([rec("a", null), rec("b", "a")]);
  expect(ids(tree.pathTo("b"))).toEqual(["a", "b"]);
  tree.add(rec("a", "b"));
  expect(ids(tree.pathTo("a"))).toEqual(fresh(tree, "a"));
});

test("with an id used twice, a walk follows the id's owner, not the record just before it", () => {
  // Linear: every parent is the record just before.
  const linear = Array.from({ length: 50 }, (_, i) => rec(`n${i}`, i === 0 ? null : `n${i - 1}`));
  expect(ids(new SessionTree(linear).pathTo("n49"))).toEqual(linear.map((r) => r.id));
  // "x" is used twice, and the later line owns it: "c"'s parent is that later "x", whose own
  // parent "x" is itself (a cycle, cut there), not the first "x" on the line before it.
  const first = rec("x", "r");
  const second = rec("x", "x");
  const records = [rec("r", null), first, second, rec("c", "x")];
  const tree = new SessionTree(records);
  expect(tree.get("x")).toBe(second);
  expect(ids(tree.pathTo("c"))).toEqual(["x", "c"]);
  expect(tree.pathTo("c")[0]).toBe(second);
  // Built record by record, the same.
  const added = new SessionTree();
  for (const r of records) added.add(r);
  expect(added.pathTo("c")).toEqual(tree.pathTo("c"));
});

test("after a record is taken back, one is added and the last is replaced, the walk from the last entry is the walk by ids", () => {
  const tree = new SessionTree(Array.from({ length: 10 }, (_, i) => rec(`k${i}`, i === 0 ? null : `k${i - 1}`)));
  tree.removeLast(tree.records.at(-1)!);
  tree.add(rec("k9b", "k8"));
  const last = tree.records.at(-1)!;
  const updated = { ...last, line: 500 };
  tree.replace(last, updated);
  const path = tree.pathTo("k9b");
  expect(ids(path)).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9b"]);
  expect(path.at(-1)).toBe(updated);
  // The same as a walk that looks every parent up by its id.
  const byIds: EntryRecord[] = [];
  for (let r = tree.get("k9b"); r; r = r.parentId ? tree.get(r.parentId) : undefined) byIds.unshift(r);
  expect(path).toEqual(byIds);
});

test("whether the tree holds a custom entry follows what is added, taken back and replaced", () => {
  const custom = (id: string, parentId: string | null): EntryRecord => ({ ...rec(id, parentId), type: "custom" });
  const tree = new SessionTree([rec("a", null), rec("b", "a")]);
  expect(tree.holdsCustomEntries).toBe(false);
  const c = custom("c", "b");
  tree.add(c);
  expect(tree.holdsCustomEntries).toBe(true);
  tree.removeLast(c);
  expect(tree.holdsCustomEntries).toBe(false);
  const d = rec("d", "b");
  tree.add(d);
  const asCustom = { ...d, type: "custom" };
  tree.replace(d, asCustom);
  expect(tree.holdsCustomEntries).toBe(true);
  tree.replace(asCustom, { ...asCustom, type: "message" });
  expect(tree.holdsCustomEntries).toBe(false);
  expect(new SessionTree([rec("a", null), custom("b", "a")]).holdsCustomEntries).toBe(true);
});
