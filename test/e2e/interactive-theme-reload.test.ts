/**
 * A theme file in use is watched: an edit shows while pig runs, without a restart, and an edit
 * pig cannot use (half-written JSON) keeps the current theme and says what is wrong with the file.
 */
import { expect, test } from "bun:test";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive theme reload", () => {
  test("an edited theme file is reloaded; a broken edit keeps the current theme", async () => {
    const theme = (muted: string) => JSON.stringify({ name: "ocean", colors: { muted } });
    const { world, tmux } = await start(undefined, { files: { "ocean.json": theme("#00ff00") }, args: ["--theme", "ocean.json"], settings: { theme: "ocean" } });
    const file = join(world.cwd, "ocean.json");

    // Saved the way many editors save: a new file renamed over the old one. The folder's watch is
    // asked for as the prompt is drawn, but the runtime may arm it a moment later on a loaded
    // machine: a save it missed is made again, as a user would, until the notice shows.
    const notice = `Theme "ocean" reloaded from ${file}.`;
    for (let attempt = 1; ; attempt++) {
      writeFileSync(`${file}.tmp`, theme("#ff0000"));
      renameSync(`${file}.tmp`, file);
      try {
        await tmux.waitFor(notice, 3_000);
        break;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
    // The reload notice itself is drawn in the new muted colour (true colour or its 256-colour match).
    const styled = tmux.captureStyled();
    expect(/38;2;255;0;0|38;5;196/.test(styled)).toBe(true);

    writeFileSync(file, '{"name": "ocean", "colors": {');
    // The message is longer than the 100-column window and wraps at words: read it with its rows joined.
    const screen = (await tmux.waitFor("not valid JSON")).replaceAll("\n", " ");
    expect(screen).toContain(`${file}: not valid JSON: '}' is expected at line 1, column 30; keeping the current theme`);
    expect(screen).not.toContain("using the dark theme");
  });
});
