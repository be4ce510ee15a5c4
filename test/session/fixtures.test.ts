/** Every session file the real Pi 0.73.1 wrote: loaded, rebuilt and appended to by pig. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";
import { FIXTURES, fixtureCopy } from "../helpers/tmp.ts";

// A session fixture is a .jsonl file with the context Pi built from it beside it.
const sessionFiles = readdirSync(FIXTURES).filter(
  (name) => name.endsWith(".jsonl") && existsSync(join(FIXTURES, name.replace(/\.jsonl$/, ".context.json"))),
);

function lastEntryId(path: string): string {
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  return JSON.parse(lines[lines.length - 1]!).id;
}

describe.each(sessionFiles)("fixture %s", (name) => {
  const path = join(FIXTURES, name);
  const expected = JSON.parse(readFileSync(path.replace(/\.jsonl$/, ".context.json"), "utf8"));

  test("loads without diagnostics and puts the leaf on the last entry", () => {
    const store = SessionStore.open(path);
    expect(store.diagnostics).toEqual([]);
    expect(store.leafId).toBe(lastEntryId(path));
    store.close();
  });

  test("re-serialises every line to the bytes Pi wrote", () => {
    const store = SessionStore.open(path);
    const lines = [store.serializeHeader(), ...store.tree.records.map((r) => store.serializeEntry(r.id))];
    expect(`${lines.join("\n")}\n`).toBe(readFileSync(path, "utf8"));
    store.close();
  });

  test("builds the context Pi built", () => {
    const store = SessionStore.open(path);
    expect(JSON.parse(JSON.stringify(store.buildContext()))).toEqual(expected);
    store.close();
  });

  test("appending a name and a label changes nothing but the new last lines", () => {
    const copy = fixtureCopy(name);
    const before = readFileSync(copy);
    const store = SessionStore.open(copy, { write: true });
    const target = store.tree.records[0]!.id;
    store.appendSessionInfo("renamed by pig");
    store.appendLabelChange(target, "pig-label");
    store.flush(true);
    store.close();
    const after = readFileSync(copy);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(added.map((e) => e.type)).toEqual(["session_info", "label"]);
    expect(added[0].parentId).toBe(lastEntryId(join(FIXTURES, name)));
    expect(added[1]).toMatchObject({ parentId: added[0].id, targetId: target, label: "pig-label" });
    expect(Object.keys(added[1])).toEqual(["type", "id", "parentId", "timestamp", "targetId", "label"]);
    const reopened = SessionStore.open(copy);
    expect(reopened.name).toBe("renamed by pig");
    expect(reopened.tree.labelOf(target)?.label).toBe("pig-label");
    reopened.close();
  });
});
