/**
 * A large paste in a real terminal (tmux), at a wide and a narrow width: shown as one token while
 * typed, and shown so again when the prompt is recalled from history with Up.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "a large paste recalled", () => {
  for (const width of [100, 40]) {
    test(`Up brings back a prompt with a large paste as its token, and Enter sends the paste again (${width} columns)`, async () => {
      const log = Array.from({ length: 40 }, (_, i) => `stack frame ${i} at range.ts:${i + 1}`).join("\n");
      const { tmux, world } = await start({ responses: [{ text: "first answer" }, { text: "second answer" }] }, { width });
      tmux.type("why ");
      tmux.paste(log);
      await tmux.waitFor(/› why \[pasted 40 lines\]/);
      tmux.sendKeys("Enter");
      await tmux.waitFor("first answer");
      tmux.sendKeys("Up");
      // The prompt as it was typed, at the bottom of the screen: not the forty lines under it.
      await tmux.waitFor(/› why \[pasted 40 lines\]\s*$/);
      tmux.sendKeys("Enter");
      await tmux.waitFor("second answer");
      const bodies = world.llm.requests.map((r) => JSON.stringify(r.body));
      expect(bodies).toHaveLength(2);
      expect(bodies[1]).toContain("stack frame 39 at range.ts:40");
    });
  }
});
