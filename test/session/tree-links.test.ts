/** A tree of damaged links: every entry shown once, and every damage named. */
import { describe, expect, test } from "bun:test";
import type { EntryRecord } from "../../src/session/records.ts";
import { SessionStore } from "../../src/session/store.ts";
import { SessionTree, type TreeNode } from "../../src/session/tree.ts";
import { linkDamage, resolveLinks } from "../../src/session/tree-links.ts";
import { seeded } from "../faults/figures.ts";
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

describe("the one-pass check of a file's links", () => {
  /**
   * `count` records in file order; parents mostly earlier lines (half of them the line before, as
   * a session written turn after turn has them), sometimes later, missing, themselves or a reused id.
   */
  function randomRecords(random: () => number, count: number, damage: number): EntryRecord[] {
    const ids = Array.from({ length: count }, (_, i) => `e${i}`);
    return ids.map((_, i) => {
      const roll = random();
      let parentId: string | null = i === 0 ? null : random() < 0.5 ? ids[i - 1]! : ids[Math.floor(random() * i)]!;
      let id = ids[i]!;
      if (roll < damage) parentId = ids[Math.floor(random() * count)]!; // anywhere, later lines too
      else if (roll < damage * 1.5) parentId = "gone";
      else if (roll < damage * 2) id = ids[Math.floor(random() * count)]!; // an id used twice
      return { line: i + 2, type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", source: { kind: "text", text: "{}" } };
    });
  }

  test("finds what the whole resolution finds, on sound and damaged files", () => {
    const random = seeded(0x71_ee);
    let damagedFiles = 0;
    let uniqueFiles = 0;
    for (let n = 0; n < 400; n++) {
      const records = randomRecords(random, 2 + Math.floor(random() * 40), n % 2 === 0 ? 0 : 0.08);
      const owner = new Map(records.map((r) => [r.id, r]));
      const byId = (id: string) => owner.get(id);
      const full = resolveLinks(records, byId);
      const quick = linkDamage(records, byId);
      expect(quick.dangling).toEqual(full.dangling);
      expect(quick.cycles).toEqual(full.cycles);
      // Told that no id is used twice (when none is), it takes a parent on the line before without looking it up: the same answer.
      if (owner.size === records.length) {
        const unique = linkDamage(records, byId, true);
        expect(unique.dangling).toEqual(full.dangling);
        expect(unique.cycles).toEqual(full.cycles);
        uniqueFiles++;
      }
      if (full.cycles.length > 0) damagedFiles++;
      // A path walked without watching every step ends where one watching every id ends.
      const tree = new SessionTree(records);
      for (const record of records) {
        const path = tree.pathTo(record.id);
        const seen = new Set<string>();
        let steps = 0;
        for (let at: EntryRecord | undefined = owner.get(record.id); at && !seen.has(at.id); at = at.parentId ? owner.get(at.parentId) : undefined) {
          seen.add(at.id);
          steps++;
          if (full.cycles.some((c) => c.cut === at)) break;
        }
        expect(path).toHaveLength(steps);
      }
    }
    expect(damagedFiles).toBeGreaterThan(20);
    expect(uniqueFiles).toBeGreaterThan(100);
  });

  test("records not in line order: a parent just before in the list but on a later line still makes the cycle found", () => {
    const at = (id: string, parentId: string, line: number): EntryRecord => ({ line, type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", source: { kind: "text", text: "{}" } });
    const records = [at("x", "y", 5), at("y", "x", 3)];
    const owner = new Map(records.map((r) => [r.id, r]));
    const byId = (id: string) => owner.get(id);
    const full = resolveLinks(records, byId);
    expect(full.cycles).toHaveLength(1);
    expect(linkDamage(records, byId, true).cycles).toEqual(full.cycles);
  });
});
