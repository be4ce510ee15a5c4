/** A tree of damaged links: every entry shown once, and every damage named. */
import { describe, expect, test } from "bun:test";
import { SessionStore } from "../../src/session/store.ts";
import type { TreeNode } from "../../src/session/tree.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";

function flatten(nodes: TreeNode[]): string[] {
  return nodes.flatMap((n) => [`${n.record.id}@${n.record.line}`, ...flatten(n.children)]);
}

function open(lines: object[]) {
  return SessionStore.open(writeSession([HEADER, ...lines]));
}

describe("links", () => {
  test("an id used again further down: both lines are in the tree, nothing hangs off a loop", () => {
    // Line 4 reuses u1: it wins the id, so a1 (child of u1) now hangs under line 4, whose
    // parent is a1 — without care, a1 and line 4 form a loop that no root reaches.
    const store = open([msg("u1", null, user("q")), msg("a1", "u1", assistant("a")), msg("u1", "a1", user("again")), msg("a2", "u1", assistant("b"))]);
    const shown = flatten(store.tree.toNodes());
    expect(shown.sort()).toEqual(["a1@3", "a2@5", "u1@2", "u1@4"]);
    expect(store.diagnostics.map((d) => `${d.line}:${d.kind}`)).toEqual(["3:parent-cycle", "4:duplicate-id"]);
    store.close();
  });

  test("a parent cycle is cut at its earliest line and reported with its members", () => {
    const store = open([msg("r1", null, user("root")), msg("c1", "c3", user("x")), msg("c2", "c1", assistant("y")), msg("c3", "c2", user("z")), msg("k1", "c2", assistant("kid"))]);
    const roots = store.tree.toNodes();
    expect(roots.map((r) => r.record.id)).toEqual(["r1", "c1"]);
    expect(flatten(roots)).toHaveLength(5);
    const [cycle] = store.diagnostics.filter((d) => d.kind === "parent-cycle");
    expect(cycle!.line).toBe(3);
    expect(cycle!.message).toContain("c1 (line 3) → c3 (line 5) → c2 (line 4) → c1");
    expect(cycle!.message).toContain(store.path!);
    store.close();
  });

  test("a parent no entry has, and an entry that is its own parent", () => {
    const store = open([msg("u1", null, user("q")), msg("a1", "gone0000", assistant("a")), msg("s1", "s1", user("me"))]);
    expect(store.tree.toNodes().map((r) => r.record.id)).toEqual(["u1", "a1", "s1"]);
    const kinds = store.diagnostics.map((d) => `${d.line}:${d.kind}`);
    expect(kinds).toEqual(["3:dangling-parent", "4:parent-cycle"]);
    expect(store.diagnostics[0]!.message).toContain("names parent gone0000, which no entry has");
    expect(store.diagnostics[1]!.message).toContain("s1 names itself as its parent");
    store.close();
  });

  test("a sound file has no link diagnostics", () => {
    const store = open([msg("u1", null, user("q")), msg("a1", "u1", assistant("a")), msg("u2", "u1", user("branch"))]);
    expect(store.diagnostics).toEqual([]);
    expect(flatten(store.tree.toNodes())).toEqual(["u1@2", "a1@3", "u2@4"]);
    store.close();
  });
});

describe("paths and the tree agree", () => {
  test("a cycle is cut in one place for both: the path from an entry below it starts at the cut", () => {
    // A's parent is B, B's is C, C's is A; D hangs off C.
    const store = open([msg("a0000001", "b0000001", user("a")), msg("b0000001", "c0000001", user("b")), msg("c0000001", "a0000001", user("c")), msg("d0000001", "c0000001", user("d"))]);
    const roots = store.tree.toNodes();
    expect(roots.map((r) => r.record.id)).toEqual(["a0000001"]);
    expect(store.branchRecords("d0000001").map((r) => r.id)).toEqual(["a0000001", "c0000001", "d0000001"]);
    // B is a branch of its own in the tree, and its path says so too.
    expect(store.branchRecords("b0000001").map((r) => r.id)).toEqual(["a0000001", "c0000001", "b0000001"]);
    store.close();
  });
});
