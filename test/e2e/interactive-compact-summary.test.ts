/**
 * What `/compact` shows of the summary it made, in a real terminal (tmux) at a wide and a narrow
 * width: the model's Markdown rendered as answers are, inside the summary's gutter.
 */
import { expect, test } from "bun:test";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "the /compact summary", () => {
  async function ask(tmux: TmuxSession, text: string, wait: string | RegExp) {
    tmux.type(text);
    tmux.sendKeys("Enter");
    return tmux.waitFor(wait);
  }

  for (const width of [100, 40]) {
    test(`/compact shows the summary's Markdown rendered, not its source, in a gutter (${width} columns)`, async () => {
      const words = "lorem ipsum dolor sit amet ".repeat(30);
      const summary = "## Goal\n- found the **bug**\n- wrote a test that counts the last item of the range as well\n- ran it\n- ran it again\n- done";
      const { tmux } = await start(
        { responses: [{ when: "context summarization assistant", text: summary }, { text: "one" }, { text: "two" }] } as unknown as Script,
        { settings: { compaction: { keepRecentTokens: 50 } }, width },
      );
      await ask(tmux, `first ${words}`, /↑\d/);
      await ask(tmux, `second ${words}`, /^two\n↑\d/m);
      const screen = await ask(tmux, "/compact", /more lines of the summary/);
      const rows = screen.slice(screen.indexOf("Compacted")).split("\n");
      const summaryRows = rows.slice(1, rows.findIndex((row) => row.includes("more lines of the summary")));
      // The heading, then bullets that are bullets and bold that is bold: no Markdown markers on screen.
      expect(summaryRows.slice(0, 2)).toEqual(["  │ ## Goal", "  │ • found the bug"]);
      expect(summaryRows.join("\n")).not.toContain("**");
      // A bullet too long for the width goes on inside the gutter, under its text.
      if (width === 40) expect(summaryRows.slice(2, 4)).toEqual(["  │ • wrote a test that counts the last", "  │   item of the range as well"]);
      else expect(summaryRows[2]).toBe("  │ • wrote a test that counts the last item of the range as well");
    });
  }
});
