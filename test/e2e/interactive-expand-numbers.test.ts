/**
 * `/expand N` numbers in a real terminal (tmux), at a wide and a narrow width: a new session
 * numbers its tool results from 1, as its replay will.
 */
import { expect, test } from "bun:test";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "/expand numbers", () => {
  for (const width of [100, 40]) {
    test(`after /new the first tool result is /expand 1 again, and /expand 1 shows it (${width} columns)`, async () => {
      const script = {
        responses: [
          { toolCalls: [{ name: "bash", arguments: { command: "seq -f old-%g 15" } }] },
          { text: "Old done." },
          { toolCalls: [{ name: "bash", arguments: { command: "seq -f new-%g 15" } }] },
          { text: "New done." },
        ],
      } as unknown as Script;
      const { tmux } = await start(script, { width });
      tmux.type("first");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/\/expand 1[\s\S]*Old done\./);
      tmux.type("/new");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/New session/i);
      tmux.type("second");
      tmux.sendKeys("Enter");
      const screen = await tmux.waitFor("New done.");
      const after = screen.slice(screen.lastIndexOf("seq -f new"));
      expect(after).toMatch(/\/expand 1\b/);
      expect(after).not.toMatch(/\/expand 2\b/);
      tmux.type("/expand 1");
      tmux.sendKeys("Enter");
      // Whole, from its first line (the collapsed block showed only its last ones): the new
      // session's result, not the old one's.
      const full = await tmux.waitFor(/Result 1 in full:\n● bash {2}seq -f new-%g 15\n\s+│ new-1\n/);
      expect(full.slice(full.lastIndexOf("Result 1 in full:"))).toContain("new-15");
    });
  }
});
