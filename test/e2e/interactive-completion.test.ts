/**
 * Completion lists in a real terminal (tmux), at a wide and a narrow width: the project's files
 * listed as soon as an `@` mention is typed, and the commands a typed prefix could mean.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "completion lists", () => {
  for (const width of [100, 40]) {
    test(`@ lists the project's files as it is typed; Enter puts one in, and the next Enter sends (${width} columns)`, async () => {
      const { tmux, world } = await start({ responses: [{ text: "read it" }] }, {
        width,
        files: { "src/range.ts": "export const last = (n: number) => n - 1;\n", "notes.md": "# notes\n" },
      });
      tmux.type("look at @");
      // No Tab: the list is there as soon as the @ is.
      await tmux.waitFor(/› look at @\n▸ notes\.md\n {2}src\//);
      tmux.type("range");
      await tmux.waitFor(/› look at @range\n▸ src\/range\.ts\n/);
      tmux.sendKeys("Enter");
      await tmux.waitFor(/› look at @src\/range\.ts\s*\n(?!▸)/);
      expect(world.llm.requests).toHaveLength(0);
      tmux.sendKeys("Enter");
      await tmux.waitFor("read it");
      // The file went with the prompt, as an @ mention does.
      expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("export const last");
    });

    test(`Tab on a prefix several commands share lists them (${width} columns)`, async () => {
      const { tmux } = await start(undefined, { width });
      tmux.type("/re");
      await tmux.waitFor(/▸ \/reload/);
      // Escape closes the list that opened by itself; Tab brings the candidates back.
      tmux.sendKeys("Escape");
      await tmux.waitFor(/› \/re\s*$/);
      tmux.sendKeys("Tab");
      const screen = await tmux.waitFor(/▸ \/reload[^\n]*\n {2}\/resume/);
      expect(screen).toMatch(/› \/re\n/);
    });
  }
});
