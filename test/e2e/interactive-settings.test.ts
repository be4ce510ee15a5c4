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
      const menu = await tmux.waitFor("Autocomplete max items");
      for (const row of ["Quiet startup", "Hide thinking", "Double-escape action", "Skill commands"]) expect(menu).toContain(row);
      // The rest of the list, found by typing.
      tmux.type("images");
      await tmux.waitFor(/Block images[\s\S]*Auto-resize images/);
      for (let i = 0; i < "images".length; i++) tmux.sendKeys("BSpace");
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
});
