/** Every session file the real Pi (0.73.1 and 0.87.1) wrote: loaded, rebuilt and appended to by pig. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";
import { FIXTURE_SETS, fixtureCopy } from "../helpers/tmp.ts";

// A session fixture is a .jsonl file with the context Pi built from it beside it.
const sessionFiles = FIXTURE_SETS.flatMap(({ version, dir }) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl") && existsSync(join(dir, name.replace(/\.jsonl$/, ".context.json"))))
    .map((name) => ({ version, dir, name })),
);

function lastEntryId(path: string): string {
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  return JSON.parse(lines[lines.length - 1]!).id;
}

describe.each(sessionFiles)("Pi $version fixture $name", ({ dir, name }) => {
  const path = join(dir, name);
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

  test("builds the context Pi built (but for the messages Pi hides with context edits, which pig keeps)", () => {
    const store = SessionStore.open(path);
    const context = JSON.parse(JSON.stringify(store.buildContext()));
    // pig does not apply context_edit entries (docs/sessions.md): the messages they hide from Pi
    // are still in pig's context, and without them the two contexts are the same.
    const hidden = new Set(
      store.tree.records.filter((r) => r.type === "context_edit").map((r) => (r.value as { targetId: string }).targetId),
    );
    const plan = store.planContext();
    const kept = plan.items.map((item, index) => ({ item, message: context.messages[index] }));
    const withoutHidden = kept.filter(({ item }) => !(item.kind === "stored" && hidden.has(item.record.id)));
    expect(kept.length - withoutHidden.length).toBe(hidden.size);
    expect({ ...context, messages: withoutHidden.map((k) => k.message) }).toEqual(expected);
    store.close();
  });

  test("appending a name and a label changes nothing but the new last lines", () => {
    const copy = fixtureCopy(name, dir);
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
    expect(added[0].parentId).toBe(lastEntryId(path));
    expect(added[1]).toMatchObject({ parentId: added[0].id, targetId: target, label: "pig-label" });
    expect(Object.keys(added[1])).toEqual(["type", "id", "parentId", "timestamp", "targetId", "label"]);
    const reopened = SessionStore.open(copy);
    expect(reopened.name).toBe("renamed by pig");
    expect(reopened.tree.labelOf(target)?.label).toBe("pig-label");
    reopened.close();
  });
});
