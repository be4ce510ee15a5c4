/**
 * `pig sessions tree --json` through the built binary: the same tree the text shows, as one flat
 * list a script can walk (every entry once, children by id, the active branch and the leaf), in
 * the documented shape (SessionTreeJsonSchema); damaged files say which entries are damaged, and
 * errors name the session or the file with nothing on stdout.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { SessionTreeJsonSchema, type SessionTreeJson } from "../../src/cli/show-tree-json.ts";
import { runPig } from "../helpers/binary.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";
import { FIXTURES, tempDir } from "../helpers/tmp.ts";

/** A HOME of its own, so that ids are looked up among no one's sessions but the test's. */
function env(): Record<string, string> {
  const home = tempDir("pig-tree-home-");
  return { HOME: home, PIG_CODING_AGENT_DIR: join(home, "agent") };
}

function treeJson(path: string): SessionTreeJson {
  const run = runPig(["sessions", "tree", path, "--json"], { env: env() });
  expect(run.code).toBe(0);
  return v.parse(SessionTreeJsonSchema, JSON.parse(run.stdout));
}

const message = (id: string, parentId: string | null, role: "user" | "assistant", text: string) => msg(id, parentId, role === "user" ? user(text) : assistant(text));

describe("pig sessions tree --json", () => {
  const fixture = join(FIXTURES, "08-branching-tree.jsonl");

  test("a branching session: every entry once, in the text tree's order, children and active branch consistent", () => {
    const tree = treeJson(fixture);
    const text = runPig(["sessions", "tree", fixture], { env: env() }).stdout;
    // The text tree's rows name the entries in the same order.
    const textIds = text.trimEnd().split("\n").slice(1).map((row) => /([0-9a-f]{8})  /.exec(row)![1]);
    expect(tree.entries.map((e) => e.id)).toEqual(textIds as string[]);
    expect(tree.path).toBe(fixture);
    const byId = new Map(tree.entries.map((e) => [e.id, e]));
    for (const entry of tree.entries) {
      for (const child of entry.children) expect(byId.get(child)?.parentId).toBe(entry.id);
    }
    expect(tree.roots).toEqual(tree.entries.filter((e) => e.parentId === null).map((e) => e.id));
    expect(tree.activePath.at(-1)).toBe(tree.leafId!);
    expect(tree.leafId).toBe("1e0630d1");
    expect(tree.entries.filter((e) => e.active).map((e) => e.id).sort()).toEqual([...tree.activePath].sort());
    // The branch point (the first answer) has three children, the last of them on the active branch.
    expect(byId.get("8e2384d1")!.children).toEqual(["cac8741e", "8e4cd0d6", "6701436e"]);
    expect(byId.get("8e2384d1")!.children.map((id) => byId.get(id)!.active)).toEqual([false, false, true]);
    expect(byId.get("b964e182")).toMatchObject({ type: "message", role: "user", preview: "user  A", label: "start-of-session", active: true });
    expect(byId.get("1e0630d1")).toMatchObject({ type: "label", preview: "label 1ceb8f6d cleared", children: [] });
  });

  test("a damaged file: reused ids told apart by line, a missing parent and a cut cycle named", () => {
    const path = writeSession([
      HEADER,
      message("aaaa0001", null, "user", "one"),
      message("aaaa0002", "aaaa0001", "assistant", "two"),
      message("aaaa0001", "aaaa0002", "user", "three"),
      message("cccc0001", "cccc0002", "user", "cycle one"),
      message("cccc0002", "cccc0001", "assistant", "cycle two"),
      message("dddd0001", "missing0", "user", "orphan"),
    ]);
    const run = runPig(["sessions", "tree", path, "--json"], { env: env() });
    expect(run.code).toBe(0);
    // The warnings go to stderr, naming the file and line; stdout is the JSON alone.
    expect(run.stderr).toContain(`${path}:4: entry id aaaa0001 is used by an earlier line too`);
    const tree = v.parse(SessionTreeJsonSchema, JSON.parse(run.stdout));
    expect(tree.entries).toHaveLength(6);
    expect(tree.entries.filter((e) => e.id === "aaaa0001").map((e) => e.line).sort()).toEqual([2, 4]);
    expect(tree.entries.find((e) => e.id === "dddd0001")).toMatchObject({ problem: "parent-missing", parentId: "missing0" });
    // Two cycles: cccc0001 ↔ cccc0002, and the reused aaaa0001 whose parent's parent is itself.
    const cut = tree.entries.filter((e) => e.problem === "parent-cycle-cut").map((e) => e.id);
    expect(cut).toHaveLength(2);
    expect(cut.some((id) => id.startsWith("cccc"))).toBe(true);
    expect(tree.roots).toContain("dddd0001");
  });

  test("a long chain stays a flat list: no entry nests another", () => {
    const id = (i: number) => `e${String(i).padStart(7, "0")}`;
    const turns = Array.from({ length: 600 }, (_, i) => message(id(i), i === 0 ? null : id(i - 1), i % 2 ? "assistant" : "user", `turn ${i}`));
    const path = writeSession([HEADER, ...turns]);
    const tree = treeJson(path);
    expect(tree.entries).toHaveLength(600);
    expect(tree.activePath).toHaveLength(600);
    expect(tree.entries.at(-1)).toMatchObject({ id: "e0000599", children: [], active: true, preview: "assistant  turn 599" });
  });

  test("errors name the session or the file, exit 1, and print no JSON", () => {
    const dir = tempDir();
    const cases: [string, string][] = [
      ["deadbeef", "pig: No session found matching 'deadbeef'\n"],
      [join(dir, "nope.jsonl"), `pig: Session file not found: ${join(dir, "nope.jsonl")}\n`],
    ];
    const bad = writeSession(["garbage"], { dir, name: "bad.jsonl" });
    cases.push([bad, `pig: ${bad} is not a session file: its first line is not JSON\n`]);
    const empty = writeSession([], { dir, name: "empty.jsonl", trailingNewline: false });
    cases.push([empty, `pig: Session file is empty: ${empty}\n`]);
    for (const [arg, stderr] of cases) {
      const run = runPig(["sessions", "tree", arg, "--json"], { env: env() });
      expect({ arg, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ arg, code: 1, stdout: "", stderr });
    }
  });
});
