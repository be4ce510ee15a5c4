import { describe, expect, test } from "bun:test";
import { forkCommand, treeCommand, treeOption, treeRows } from "../../../src/modes/interactive/commands/tree.ts";
import type { Theme } from "../../../src/modes/interactive/theme.ts";
import { makeHost, type FakeHost } from "./fake-host.ts";

async function conversation(host: FakeHost, ...prompts: string[]): Promise<void> {
  for (const prompt of prompts) await host.session.prompt(prompt);
}

const userEntry = (host: FakeHost, text: string) =>
  host.session.forkMessages().find((m) => m.text === text)!.entryId;

describe("/tree", () => {
  test("lists every entry, marks the active path and where you are", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.pickAnswers = ["cancel"];
    await treeCommand.run(host, "");
    const { options, config } = host.picks[0]!;
    expect(config?.search).toBe(true);
    const labels = options.map((o) => o.label);
    expect(labels.some((l) => l.includes("user  one"))).toBe(true);
    expect(labels.every((l) => l.startsWith("•"))).toBe(true);
    const here = options.filter((o) => o.hint === "you are here");
    expect(here).toHaveLength(1);
    expect(here[0]!.value).toBe(config?.initial);
    expect(here[0]!.label).toContain("assistant");
  });

  test("going to a user message puts its text in the editor, without a summary when declined", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.pickAnswers = [{ label: "user  two" }, { label: "No summary" }];
    await treeCommand.run(host, "");
    expect(host.editorText).toBe("two");
    expect(host.changes).toBe(1);
    expect(host.session.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
  });

  test("summarising the branch left behind adds a branch summary", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    host.runtime.replies.push("the summary of two");
    host.pickAnswers = [{ label: "user  two" }, { label: "Summarize" }];
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
    host.pickAnswers = [{ label: "user  two" }];
    await treeCommand.run(host, "");
    expect(host.picks).toHaveLength(1);
    expect(host.editorText).toBe("two");
  });

  test("choosing where you already are does nothing", async () => {
    const host = makeHost();
    await conversation(host, "one");
    const leaf = host.session.store.leafId;
    host.pickAnswers = [{ label: "assistant" }];
    await treeCommand.run(host, "");
    expect(host.text).toContain("Already there");
    expect(host.session.store.leafId).toBe(leaf);
    expect(host.changes).toBe(0);
  });

  test("entries after a branch point are indented, labels shown, off-branch entries unmarked", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    await host.session.navigateTree(userEntry(host, "two"));
    await conversation(host, "three");
    host.session.setLabel(userEntry(host, "one"), "start");
    const rows = treeRows(host.session.store);
    const two = rows.find((r) => r.text.includes("user  two"))!;
    const three = rows.find((r) => r.text.includes("user  three"))!;
    const one = rows.find((r) => r.text.includes("user  one"))!;
    expect(one.depth).toBe(0);
    expect(one.label).toBe("start");
    expect(two.depth).toBe(1);
    expect(three.depth).toBe(1);
    expect(two.onActivePath).toBe(false);
    expect(three.onActivePath).toBe(true);
    expect(rows.some((r) => r.text.startsWith("label"))).toBe(false);
  });
});

describe("/tree drawing", () => {
  test("branches are drawn with connectors; a straight chain stays in its column", async () => {
    const host = makeHost();
    await conversation(host, "one", "two");
    await host.session.navigateTree(userEntry(host, "two"));
    await conversation(host, "three");
    host.session.setLabel(userEntry(host, "three"), "later");
    await conversation(host, "four");
    const drawn = treeRows(host.session.store).map((r) => `${r.prefix}${r.text.split("  ")[0]} ${r.text.split("  ")[1] ?? ""}`.trimEnd());
    expect(drawn).toEqual([
      "model → test/alpha",
      "thinking → medium",
      "prompt preamble",
      "user one",
      "assistant ok",
      "├─ user two",
      "│  assistant ok",
      "└─ user three",
      "   assistant ok",
      "   user four",
      "   assistant ok",
    ]);
  });

  test("model and thinking level changes and prompt declarations are dimmed; messages are not", async () => {
    const host = makeHost();
    await conversation(host, "one");
    host.session.setThinkingLevel("high");
    await conversation(host, "two");
    const theme = { fg: (token: string, text: string) => `<${token}>${text}</>` } as unknown as Theme;
    const labels = treeRows(host.session.store).map((r) => treeOption(r, undefined, theme).label);
    expect(labels.filter((l) => l.includes("<dim>"))).toEqual(
      expect.arrayContaining([expect.stringContaining("<dim>thinking → high</>"), expect.stringContaining("<dim>prompt  preamble</>")]),
    );
    expect(labels.filter((l) => l.includes("user  ")).every((l) => !l.includes("<dim>"))).toBe(true);
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
