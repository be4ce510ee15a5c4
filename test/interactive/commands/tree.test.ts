import { describe, expect, test } from "bun:test";
import { forkCommand, treeCommand } from "../../../src/modes/interactive/commands/tree.ts";
import type { SessionTreeModel } from "../../../src/modes/interactive/tree/tree-rows.ts";
import { makeHost, type FakeHost } from "./fake-host.ts";

async function conversation(host: FakeHost, ...prompts: string[]): Promise<void> {
  for (const prompt of prompts) await host.session.prompt(prompt);
}

const userEntry = (host: FakeHost, text: string) =>
  host.session.forkMessages().find((m) => m.text === text)!.entryId;

/** The tree picker's answer: the entry whose text is `text`. */
const choose = (text: string) => (tree: SessionTreeModel) => tree.entries.find((e) => e.view.text === text)!.id;

describe("/tree", () => {
  test("offers every entry with where you are, on the active path", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.treeAnswers = [() => undefined];
    await treeCommand.run(host, "");
    const tree = host.treePicks[0]!;
    expect(tree.entries.filter((e) => e.view.kind === "user").map((e) => e.view.text)).toEqual(["one", "two"]);
    expect(tree.entries.every((e) => e.onActivePath)).toBe(true);
    expect(tree.currentId).toBe(tree.entries.at(-1)!.id);
    expect(tree.entries.at(-1)!.view.kind).toBe("assistant");
    expect(host.changes).toBe(0);
  });

  test("going to a user message puts its text in the editor, without a summary when declined", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.treeAnswers = [choose("two")];
    host.pickAnswers = [{ label: "No summary" }];
    await treeCommand.run(host, "");
    expect(host.editorText).toBe("two");
    expect(host.changes).toBe(1);
    expect(host.session.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
  });

  test("summarising the branch left behind adds a branch summary", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.runtime.replies.push("the summary of two");
    host.treeAnswers = [choose("two")];
    host.pickAnswers = [{ label: "Summarize" }];
    await treeCommand.run(host, "");
    const store = host.session.store;
    const summary = store.getEntry(store.leafId!) as { type: string; summary?: string };
    expect(summary.type).toBe("branch_summary");
    expect(summary.summary).toContain("the summary of two");
    expect(host.text).toContain("Summarizing");
  });

  test("with branchSummary.skipPrompt the summary question is not asked", async () => {
    const host = makeHost();
    host.settings.setGlobal(["branchSummary", "skipPrompt"], true);
    await conversation(host, "one", "two");
    host.treeAnswers = [choose("two")];
    await treeCommand.run(host, "");
    expect(host.picks).toHaveLength(0);
    expect(host.editorText).toBe("two");
  });

  test("choosing where you already are does nothing", async () => {
    const host = makeHost();
    await conversation(host, "one");
    const leaf = host.session.store.leafId;
    host.treeAnswers = [(tree) => tree.currentId];
    await treeCommand.run(host, "");
    expect(host.text).toContain("Already there");
    expect(host.session.store.leafId).toBe(leaf);
    expect(host.changes).toBe(0);
  });

  test("a label written in the tree is kept in the session, whether or not an entry is chosen", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.treeAnswers = [
      (tree, setLabel) => {
        setLabel(tree.entries.find((e) => e.view.text === "one")!.id, "start");
        return undefined;
      },
    ];
    await treeCommand.run(host, "");
    expect(host.session.store.tree.labelOf(userEntry(host, "one"))?.label).toBe("start");
  });

  test("entries off the active branch are not on it; labels come with their entries, not as entries", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    await host.session.navigateTree(userEntry(host, "two"));
    await conversation(host, "three");
    host.session.setLabel(userEntry(host, "one"), "start");
    host.treeAnswers = [() => undefined];
    await treeCommand.run(host, "");
    const entries = host.treePicks[0]!.entries;
    const byText = (text: string) => entries.find((e) => e.view.text === text)!;
    expect(byText("one").label).toBe("start");
    expect(byText("two").onActivePath).toBe(false);
    expect(byText("three").onActivePath).toBe(true);
    expect(byText("two").parentId).toBe(byText("three").parentId!);
    expect(entries.some((e) => e.view.text.startsWith("label"))).toBe(false);
  });
});

describe("/fork", () => {
  test("offers user messages, newest preselected, and puts the chosen text back in the editor", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    const before = host.session.store.sessionId;
    const two = userEntry(host, "two");
    host.pickAnswers = [{ label: "two" }];
    await forkCommand.run(host, "");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["one", "two"]);
    expect(host.picks[0]!.config?.initial).toBe(two);
    expect(host.editorText).toBe("two");
    expect(host.session.store.sessionId).not.toBe(before);
    expect(host.session.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(host.changes).toBe(1);
  });

  test("nothing to fork in an empty session", async () => {
    const host = makeHost();
    await forkCommand.run(host, "");
    expect(host.picks).toHaveLength(0);
    expect(host.text).toContain("No messages to fork from");
  });
});
