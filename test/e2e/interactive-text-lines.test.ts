/**
 * What the terminal shows of files and of pig's own lines, at 100 and at 40 columns: a binary
 * file described instead of dumped, wrapped rows that keep their gutters and break at words, and
 * a message with an @-mention shown as it was typed.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "the terminal's text: files and pig's own lines", () => {
  for (const width of [100, 40]) {
    test(`/fork lists and brings back a message with an @-mention as it was typed (${width} columns)`, async () => {
      const { tmux } = await start(undefined, { width, files: { "notes.txt": "first note\nsecond note\n" } });
      tmux.type("look at @notes.txt please");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/attached: notes\.txt[\s\S]*↑\d/);
      tmux.type("/fork");
      tmux.sendKeys("Enter");
      const picker = await tmux.waitFor("Fork from which message?");
      expect(picker).toMatch(/●  ?look at @notes\.txt please/);
      expect(picker).not.toContain("<file");
      tmux.sendKeys("Enter");
      const forked = await tmux.waitFor("Forked into a new session.");
      expect(forked).toMatch(/› look at @notes\.txt please/);
      expect(forked).not.toContain("<file");
    });
  }
});
