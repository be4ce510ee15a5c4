/**
 * `/settings` in a real terminal (tmux), at a wide and a narrow width: the menu holds upstream's
 * settings that pig has, and a change applies to what follows in the same run, and is saved.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "/settings", () => {
  for (const width of [100, 40]) {
    test(`the menu lists the settings; hiding thinking applies to the next answer and is saved (${width} columns)`, async () => {
      const script = { responses: [{ thinking: "Let me consider this carefully.", text: "Thought about it." }] } as unknown as Script;
      const { tmux, world } = await start(script, { width });
      tmux.type("/settings");
      tmux.sendKeys("Enter");
      const menu = await tmux.waitFor("Double-escape action");
      for (const row of ["Quiet startup", "Hide thinking"]) expect(menu).toContain(row);
      // The rest of the list, found by typing.
      tmux.type("images");
      await tmux.waitFor(/Block images[\s\S]*Auto-resize images/);
      for (let i = 0; i < "images".length; i++) tmux.sendKeys("BSpace");
      tmux.type("auto");
      await tmux.waitFor(/Autocomplete max items/);
      for (let i = 0; i < "auto".length; i++) tmux.sendKeys("BSpace");
      tmux.type("hide thi");
      await tmux.waitFor(/● Hide thinking[^\n]*\n(?:│\s*\n)*│\s+↑/);
      tmux.sendKeys("Enter");
      // The choices are on, then off (the current one, chosen to begin with).
      await tmux.waitFor(/○ on\n│\s+● off/);
      tmux.sendKeys("Up");
      tmux.sendKeys("Enter");
      await tmux.waitFor("Hide thinking: on");
      tmux.sendKeys("Escape");
      // The menu closed (its last line drawn), the prompt under it.
      await tmux.waitFor(/Hide thinking: on\n■ Settings[^\n]*\n›/);
      tmux.type("think");
      tmux.sendKeys("Enter");
      const done = await tmux.waitFor("Thought about it.");
      expect(done).toContain("thinking hidden");
      expect(done).not.toContain("consider this carefully");
      expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8")).hideThinkingBlock).toBe(true);
    });
  }

  for (const width of [100, 40]) {
    test(`the tree filter chosen in /settings is the one /tree opens with (${width} columns)`, async () => {
      const { tmux } = await start({ responses: [{ text: "first answer" }, { text: "second answer" }] }, { width });
      tmux.type("one");
      tmux.sendKeys("Enter");
      await tmux.waitFor("first answer");
      tmux.type("two");
      tmux.sendKeys("Enter");
      await tmux.waitFor("second answer");
      tmux.type("/settings");
      tmux.sendKeys("Enter");
      await tmux.waitFor("Double-escape action");
      tmux.type("tree filter");
      await tmux.waitFor(/● Tree filter mode/);
      tmux.sendKeys("Enter");
      await tmux.waitFor(/● default/);
      // default, no-tools, user-only: the third.
      tmux.sendKeys("Down");
      tmux.sendKeys("Down");
      await tmux.waitFor(/● user-only/);
      tmux.sendKeys("Enter");
      await tmux.waitFor("Tree filter mode: user-only");
      tmux.sendKeys("Escape");
      await tmux.waitFor(/Tree filter mode: user-only[^\n]*(?:\n[^\n■]*)*\n■ Settings[^\n]*\n›/);
      tmux.type("/tree");
      tmux.sendKeys("Enter");
      // The title names the filter; only the two user messages are listed.
      const screen = await tmux.waitFor(/Session tree · user messages/);
      expect(screen).toContain("one");
      expect(screen).not.toContain("first answer");
    });
  }
});

