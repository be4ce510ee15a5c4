/**
 * `/tree` in a real terminal (tmux), at 100 and 40 columns, on a session of three branches with
 * labels, tool calls, a retried failure and model changes: the tree's shape, its filters, the
 * jumps between branches, choosing an entry (the next prompt carries that branch) and Escape
 * (nothing changes, nothing of the picker stays in the scrollback).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BRANCHED_TEXTS, writeBranchedSession } from "../helpers/branched-session.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { open, track } = interactivePig();

/** A line the open picker draws (its bars and corner), which the closed picker must not leave. */
const PICKER_ROW = /^[│└◆]/m;

/** pig at `width` columns on the branched session, `/tree` open. */
async function openTree(width: number) {
  const world = track(await createWorld({ llm: { script: [{ text: "went on from there" }] }, settings: { branchSummary: { skipPrompt: true } } }));
  const tmux = open(world, { width, args: ["--session", writeBranchedSession(world.cwd)] });
  await tmux.waitFor("end of the saved conversation");
  tmux.type("/tree");
  tmux.sendKeys("Enter");
  await tmux.waitFor("Session tree · conversation · 13/13");
  return { world, tmux };
}

/** The row the cursor is on. */
function selectedRow(screen: string): string {
  return screen.split("\n").find((line) => line.startsWith("│  ›")) ?? "(no row selected)";
}

/** The text the last request to the model carried. */
function lastRequest(world: { llm: { requests: { body: unknown }[] } }): string {
  return JSON.stringify(world.llm.requests.at(-1)?.body ?? null);
}

async function prompt(tmux: TmuxSession, text: string) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  await tmux.waitFor(/went on from there[\s\S]*↑\d/);
}

describeNeeding("tmux", tmuxAvailable(), "/tree", () => {
  for (const width of [100, 40]) {
    test(`${width} columns: the branches drawn, tool calls summarised, internal entries folded, where you are selected`, async () => {
      const { tmux } = await openTree(width);
      const screen = tmux.capture();
      const tree = screen.slice(screen.indexOf("◆"));
      const row = (text: string) => tree.split("\n").find((line) => line.includes(text)) ?? `(no row with ${text})`;
      expect(row("⋯ model → fake/fake-model")).toMatch(/^│ {4}• ⋯ model/);
      expect(row("user: what does")).toMatch(/^│ {4}├─ {3}user: what does/);
      expect(row("[start]")).toMatch(/^│ {4}└─ • \[start\] user: fix the/);
      expect(row("[read: src/range.ts]")).toMatch(/^│ {7}• \[read: src\/range\.ts\]$/);
      expect(row("[bash: npm test]")).toMatch(/^│ {7}• \[bash: npm test\] ✗$/);
      expect(row("⋯ a failed attempt")).toMatch(/^│ {7}│ {4}⋯ a failed attempt/);
      expect(row("[tests-added]")).toMatch(/^│ {7}│ {4}\[tests-added\] assistant:/);
      expect(row("user: explain")).toMatch(/^│ {7}└─ • user: explain/);
      // The selected entry is read whole, wrapped at words under its text when it is long.
      expect(selectedRow(screen)).toMatch(/^│ {2}› {7}• assistant: The bound/);
      expect(tree.replace(/\n│ {12}/g, " ")).toContain("assistant: The bound was exclusive where it had to be inclusive. ← here");
      for (const line of screen.split("\n")) expect(line.length).toBeLessThanOrEqual(width);
      tmux.sendKeys("Escape");
      await tmux.waitFor("■ Session tree · cancelled");
    });

    test(`${width} columns: Ctrl+O cycles the filters, each named on screen`, async () => {
      const { tmux } = await openTree(width);
      tmux.sendKeys("C-o");
      let screen = await tmux.waitFor("Session tree · no tool results");
      expect(screen).not.toContain("[read: src/range.ts]");
      tmux.sendKeys("C-o");
      screen = await tmux.waitFor("Session tree · user messages · 4/4");
      expect(screen.slice(screen.indexOf("◆")).match(/user: /g)).toHaveLength(4);
      expect(screen).not.toContain("assistant: ");
      expect(selectedRow(screen)).toContain("user: explain");
      tmux.sendKeys("C-o");
      screen = await tmux.waitFor("Session tree · labelled");
      expect(screen).toMatch(/\[start\] user: fix/);
      expect(screen).toMatch(/\[tests-added\] assistant:/);
      expect(screen).not.toContain("user: explain");
      tmux.sendKeys("C-o");
      screen = await tmux.waitFor("Session tree · all entries · ");
      expect(screen).toContain("thinking → off");
      expect(screen).toContain("503 overloaded");
      expect(screen).not.toContain("⋯ ");
      tmux.sendKeys("C-o");
      await tmux.waitFor("Session tree · conversation · ");
    });

    test(`${width} columns: Ctrl+← and Ctrl+→ jump between branches; choosing an entry moves the session there`, async () => {
      const { tmux, world } = await openTree(width);
      tmux.sendKeys("C-Left");
      await tmux.waitFor((s) => selectedRow(s).includes("user: explain"));
      tmux.sendKeys("C-Left");
      await tmux.waitFor((s) => selectedRow(s).includes("user: now add a"));
      tmux.sendKeys("C-Left");
      await tmux.waitFor((s) => selectedRow(s).includes("[start] user: fix"));
      tmux.sendKeys("C-Right");
      await tmux.waitFor((s) => selectedRow(s).includes("user: now add a"));
      tmux.sendKeys("Down", "Down");
      await tmux.waitFor((s) => selectedRow(s).includes("[tests-added]"));
      tmux.sendKeys("Enter");
      const moved = await tmux.waitFor(/◇ Session tree · Added test/);
      expect(moved).not.toMatch(PICKER_ROW);
      expect(tmux.captureHistory()).not.toMatch(PICKER_ROW);
      await prompt(tmux, "and then?");
      const request = lastRequest(world);
      expect(request).toContain(BRANCHED_TEXTS.tests);
      expect(request).toContain("Added test/range.test.ts for the empty range.");
      expect(request).not.toContain(BRANCHED_TEXTS.explain);
      expect(request).toContain("and then?");
    });

    test(`${width} columns: Shift+L labels the selected entry; the label shows at once and stays in the session`, async () => {
      const { tmux, world } = await openTree(width);
      tmux.sendKeys("C-Left");
      await tmux.waitFor((s) => selectedRow(s).includes("user: explain"));
      tmux.sendKeys("L");
      await tmux.waitFor("Label: █");
      tmux.type("why");
      tmux.sendKeys("Enter");
      await tmux.waitFor((s) => selectedRow(s).includes("[why] user: explain") && s.includes("Search: type to filter"));
      tmux.sendKeys("Escape");
      await tmux.waitFor("■ Session tree · cancelled");
      const entries = readFileSync(join(world.cwd, "branched.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.filter((e) => e.type === "label").at(-1)).toMatchObject({ targetId: "u3", label: "why" });
    });

    test(`${width} columns: Escape leaves the session where it was and the scrollback clean`, async () => {
      const { tmux, world } = await openTree(width);
      tmux.sendKeys("Up", "Up", "C-o");
      await tmux.waitFor("Session tree · no tool results");
      tmux.sendKeys("Escape");
      const closed = await tmux.waitFor("■ Session tree · cancelled");
      expect(closed).not.toMatch(PICKER_ROW);
      // Nothing of the picker went into the scrollback either: it drew over its own rows.
      const history = tmux.captureHistory();
      expect(history).not.toMatch(PICKER_ROW);
      expect(history).toContain("end of the saved conversation");
      await prompt(tmux, "and then?");
      const request = lastRequest(world);
      expect(request).toContain(BRANCHED_TEXTS.explain);
      expect(request).toContain("The bound was exclusive");
      expect(request).not.toContain(BRANCHED_TEXTS.tests);
    });
  }

  test("a resize while it is open draws the tree again at the new width, once", async () => {
    const { tmux } = await openTree(100);
    tmux.sendKeys("Up");
    await tmux.waitFor("Session tree · conversation · 12/13");
    tmux.resize(40, 30);
    let screen = await tmux.waitFor((s) => s.includes("│  Ctrl+O filter · type to search") && s.includes("assistant: The…"));
    expect(screen.match(/◆ {2}Session tree/g)).toHaveLength(1);
    for (const line of screen.split("\n")) expect(line.length).toBeLessThanOrEqual(40);
    expect(selectedRow(screen)).toContain("⋯ model →");
    tmux.resize(100, 30);
    screen = await tmux.waitFor("│  ↑↓ move · ←→ page · Ctrl+←→ branch · Ctrl+O filter · type to search · Shift+L label · Enter go");
    expect(screen.match(/◆ {2}Session tree/g)).toHaveLength(1);
    expect(selectedRow(screen)).toContain("⋯ model → fake/fake-reasoner");
    tmux.sendKeys("Escape");
    screen = await tmux.waitFor("■ Session tree · cancelled");
    expect(screen).not.toMatch(PICKER_ROW);
  });
});
