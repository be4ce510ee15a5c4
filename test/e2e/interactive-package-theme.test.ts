/**
 * A package's themes are pig's to use: an `-e` package's theme is offered by the /settings theme
 * picker, and choosing it colours the screen and records it in the settings.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable, type TmuxSession } from "../helpers/tmux.ts";

const { start } = interactivePig();

const RED = /38;2;255;0;0|38;5;196/;
const ember = JSON.stringify({ name: "ember", colors: { muted: "#ff0000", dim: "#ff0000", accent: "#ff0000", border: "#ff0000" } });
const files = { "themed/package.json": JSON.stringify({ name: "themed", keywords: ["pi-package"], pi: { themes: ["themes"] } }), "themed/themes/ember.json": ember };

async function openThemePicker(tmux: TmuxSession): Promise<string> {
  tmux.type("/settings");
  tmux.sendKeys("Enter");
  await tmux.waitFor("○ Quiet startup");
  tmux.type("theme");
  tmux.sendKeys("Enter");
  return tmux.waitFor("○ light");
}

describeNeeding("tmux", tmuxAvailable(), "package themes", () => {
  test("an -e package's theme is in the picker; chosen, it colours the screen and is saved", async () => {
    const { world, tmux } = await start(undefined, { files, args: ["-e", "themed"] });
    expect(await openThemePicker(tmux)).toContain("ember");
    expect(RED.test(tmux.captureStyled())).toBe(false);
    tmux.sendKeys("Down");
    await tmux.waitFor("● light");
    tmux.sendKeys("Down");
    await tmux.waitFor("● ember");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Theme · ember/);
    tmux.sendKeys("Escape");
    await tmux.waitFor(/· cancelled\n›/);
    expect(RED.test(tmux.captureStyled())).toBe(true);
    expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8")).theme).toBe("ember");
  });

  test("without the package the picker does not offer it", async () => {
    const { tmux } = await start(undefined, { files });
    expect(await openThemePicker(tmux)).not.toContain("ember");
  });
});
