/**
 * The line under the start-up header that names the keys a new user needs first, as
 * keybindings.json binds them, left out with quietStartup.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

const HINT_ITEMS = ["Enter send", "Alt+Enter queue", "Escape stop", "/ commands", "@ files", "Ctrl+C twice quit"];

describeNeeding("tmux", tmuxAvailable(), "the key hint on start", () => {
  for (const width of [100, 40]) {
    test(`under the header, the keys to start with, each shown whole (${width} columns)`, async () => {
      const { tmux } = await start(undefined, { width, settings: { quietStartup: false } });
      const screen = await tmux.waitFor("Ctrl+C twice quit");
      const lines = screen.split("\n");
      const header = lines.findIndex((line) => line.startsWith("pig "));
      const first = lines.findIndex((line) => line.includes("Enter send"));
      expect(header).toBeGreaterThanOrEqual(0);
      expect(first).toBeGreaterThan(header);
      // One line when it fits; otherwise broken between items, never inside one.
      const hint = lines.slice(first, lines.findIndex((line) => line.includes("Ctrl+C twice quit")) + 1);
      expect(hint).toEqual(width >= 100 ? [HINT_ITEMS.join(" · ")] : ["Enter send · Alt+Enter queue", "Escape stop · / commands · @ files", "Ctrl+C twice quit"]);
    });
  }

  test("the hint names the keys keybindings.json binds, and quietStartup leaves it out", async () => {
    const { tmux } = await start(undefined, {
      settings: { quietStartup: false },
      agentFiles: { "keybindings.json": JSON.stringify({ "app.message.followUp": "ctrl+q", "app.interrupt": "ctrl+x" }) },
    });
    await tmux.waitFor("Ctrl+Q queue · Ctrl+X stop");
    const quiet = await start(undefined, {});
    quiet.tmux.type("/hotkeys");
    quiet.tmux.sendKeys("Enter");
    const screen = await quiet.tmux.waitFor("mention a file");
    expect(screen).not.toContain("Enter send");
  });
});
