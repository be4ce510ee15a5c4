/** RPC get_entries and get_tree, read from a session store in upstream Pi's shapes. */
import { describe, expect, test } from "bun:test";
import { sessionEntries, sessionTree, type WireTreeNode } from "../../src/modes/rpc-entries.ts";
import { SessionStore } from "../../src/session/store.ts";
import { tempDir } from "../helpers/tmp.ts";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });

function store() {
  const s = SessionStore.create({ cwd: "/work", dir: tempDir() });
  const a = s.appendMessage(user("first"));
  const b = s.appendMessage(user("second"));
  s.branch(a);
  const c = s.appendMessage(user("other branch"));
  s.appendLabelChange(a, "start");
  return { s, a, b, c };
}

describe("sessionEntries", () => {
  test("every entry in file order, the header left out, with the leaf", () => {
    const { s, a, b, c } = store();
    const { entries, leafId } = sessionEntries(s);
    expect(entries.map((e) => e.type)).toEqual(["message", "message", "message", "label"]);
    expect(entries.slice(0, 3).map((e) => e.id)).toEqual([a, b, c]);
    expect(entries[0]).toMatchObject({ parentId: null, message: { role: "user", content: [{ type: "text", text: "first" }] } });
    expect(leafId).toBe(entries[3]!.id);
  });

  test("since: only the entries after the cursor; an unknown cursor is an error", () => {
    const { s, b } = store();
    expect(sessionEntries(s, b).entries.map((e) => e.type)).toEqual(["message", "label"]);
    expect(sessionEntries(s, sessionEntries(s).leafId!).entries).toEqual([]);
    expect(() => sessionEntries(s, "nope")).toThrow("Entry not found: nope");
  });

  test("an empty session has no entries and no leaf", () => {
    const empty = SessionStore.create({ cwd: "/work", dir: tempDir() });
    expect(sessionEntries(empty)).toEqual({ entries: [], leafId: null });
    expect(sessionTree(empty)).toEqual({ tree: [], leafId: null });
  });
});

describe("sessionTree", () => {
  test("nodes are {entry, children, label?, labelTimestamp?}; branches are siblings", () => {
    const { s, a, b, c } = store();
    const { tree, leafId } = sessionTree(s);
    expect(tree).toHaveLength(1);
    const root = tree[0]!;
    expect(Object.keys(root)).toEqual(["entry", "children", "label", "labelTimestamp"]);
    expect(root).toMatchObject({ entry: { id: a }, label: "start", labelTimestamp: expect.any(String) });
    expect(root.children.map((n) => n.entry.id)).toEqual([b, c]);
    // The label entry hangs under the leaf it was appended at, and carries no label itself.
    const branch = root.children[1]!;
    expect(branch.children.map((n) => n.entry.type)).toEqual(["label"]);
    expect(Object.keys(branch.children[0]!)).toEqual(["entry", "children"]);
    expect(leafId).toBe(branch.children[0]!.entry.id);
  });

  test("a very deep session is built without running out of stack", () => {
    const s = SessionStore.create({ cwd: "/work", dir: tempDir() });
    for (let i = 0; i < 20_000; i++) s.appendMessage(user(`turn ${i}`));
    let node: WireTreeNode | undefined = sessionTree(s).tree[0];
    let depth = 0;
    while (node) {
      depth++;
      node = node.children[0];
    }
    expect(depth).toBe(20_000);
  });
});
