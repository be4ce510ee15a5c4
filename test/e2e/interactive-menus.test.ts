/**
 * What a new user sees of pig's menus in a real terminal (tmux): pickers that leave one line
 * behind when they close.
 */
import { expect, test } from "bun:test";
import { pigBinary } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, track } = interactivePig();

/** Rows a clack frame draws: its bars, corners and option bullets. */
const FRAME_ROW = /^[│└┌◆]|^│\s+[●○◻◼]/m;

async function command(tmux: TmuxSession, text: string, shows: string | RegExp): Promise<string> {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(shows);
}

describeNeeding("tmux", tmuxAvailable(), "pickers leave one line", () => {
  test("/model: the picker is replaced by the model chosen", async () => {
    const { tmux } = await start(undefined);
    // Keys sent before the picker listens would be lost: wait for it to show.
    await command(tmux, "/model", "○ fake/fake-reasoner");
    tmux.type("reasoner");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("Model: fake/fake-reasoner");
    expect(screen).toContain("◇ Model · fake/fake-reasoner\n");
    expect(screen).not.toContain("Search:");
    expect(screen).not.toContain("fake/fake-model (128k context");
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("a cancelled picker leaves a line saying so, and nothing of its frame", async () => {
    const { tmux } = await start(undefined);
    await command(tmux, "/model", "○ fake/fake-reasoner");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor("■ Model · cancelled");
    expect(screen).not.toContain("fake/fake-reasoner");
    expect(screen).not.toMatch(FRAME_ROW);
    // The prompt is back under that line.
    expect(screen).toMatch(/■ Model · cancelled\n›/);
  });

  test("a picker opened at the bottom of a full screen scrolls it, and is still erased", async () => {
    const { tmux } = await start(undefined);
    // 40 rows of output: the screen (30 rows) is full, so the picker's frame scrolls it.
    await command(tmux, "!seq 1 40", /│ 40\n/);
    await command(tmux, "/settings", "○ Quiet startup");
    tmux.type("theme");
    tmux.sendKeys("Enter");
    await tmux.waitFor("○ light");
    tmux.sendKeys("Escape");
    await tmux.waitFor("■ Theme · cancelled");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor(/■ Settings.* · cancelled\n›/);
    const rows = screen.split("\n");
    // The two menus became the three lines under the output, and nothing else was drawn.
    const output = rows.findIndex((row) => row.trim() === "│ 40");
    expect(rows.slice(output + 1, output + 5)).toEqual([
      expect.stringMatching(/^◇ Settings.* · Theme$/),
      "■ Theme · cancelled",
      expect.stringMatching(/^■ Settings.* · cancelled$/),
      "›",
    ]);
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("/fork and /tree leave their choice", async () => {
    const { tmux } = await start(undefined);
    await command(tmux, "first question", /↑\d/);
    await command(tmux, "second question", /second question[\s\S]*↑\d/);
    await command(tmux, "/tree", "Go to");
    tmux.sendKeys("Escape");
    let screen = await tmux.waitFor(/■ Go to .* · cancelled/);
    expect(screen).not.toMatch(FRAME_ROW);
    await command(tmux, "/fork", "Fork from which message?");
    tmux.sendKeys("Enter");
    screen = await tmux.waitFor("Forked into a new session.");
    expect(screen).toMatch(/◇ Fork from which message\? .* · second question\n/);
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("a narrow terminal: a picker whose rows wrap is erased too", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const tmux = track(TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 30, height: 20, env: { ...world.env, TERM: "xterm-256color" } }));
    await tmux.waitFor("›");
    tmux.sendKeys("C-l");
    await tmux.waitFor("○ fake/fake-reasoner");
    tmux.sendKeys("Down", "Enter");
    const screen = await tmux.waitFor("Model: fake/fake-reasoner");
    expect(screen).toContain("◇ Model · fake/fake-reasoner");
    expect(screen).not.toMatch(FRAME_ROW);
  });
});
