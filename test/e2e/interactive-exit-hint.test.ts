/**
 * On leaving, the command that comes back to the session — an id prefix `pig --session` takes —
 * unless nothing was saved.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable, type TmuxSession } from "../helpers/tmux.ts";

const { start, open } = interactivePig();

const COME_BACK = /To come back to this session: pig --session ([0-9a-f-]{8,})/;

/** The screen with its wrapped lines joined: what pig printed, at any width. */
const joined = (screen: string) => screen.replace(/\n/g, "");

async function quit(tmux: TmuxSession): Promise<string> {
  tmux.sendKeys("C-c", "C-c");
  await tmux.waitForExit();
  return tmux.capture();
}

describeNeeding("tmux", tmuxAvailable(), "the way back on exit", () => {
  for (const width of [100, 40]) {
    test(`leaving a saved session prints the command that comes back to it, and that command does (${width} columns)`, async () => {
      const { world, tmux } = await start(undefined, { width });
      tmux.type("remember the plan");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/↑\d/);
      const prefix = COME_BACK.exec(joined(await quit(tmux)))?.[1];
      expect(prefix).toBeDefined();
      // The id as short as it can be (8 digits at least), and it is this session's.
      expect(prefix!.replace(/-/g, "").length).toBeLessThan(32);
      const again = open(world, { args: ["--session", prefix!], width });
      await again.waitFor((screen) => joined(screen).includes(`Session ${prefix}`) && screen.includes("remember the plan"));
      again.type("and go on");
      again.sendKeys("Enter");
      await again.waitFor(/↑\d/);
      expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("remember the plan");
    });
  }

  test("nothing to come back to: no command after a run that saved nothing, or with --no-session", async () => {
    const { world, tmux } = await start(undefined, {});
    // A command and no prompt: the session has no answer, so it has no file.
    tmux.type("/hotkeys");
    tmux.sendKeys("Enter");
    await tmux.waitFor("mention a file");
    expect(joined(await quit(tmux))).not.toContain("To come back");
    const unsaved = open(world, { args: ["--no-session"] });
    await unsaved.waitFor("›");
    unsaved.type("not kept");
    unsaved.sendKeys("Enter");
    await unsaved.waitFor(/↑\d/);
    expect(joined(await quit(unsaved))).not.toContain("To come back");
  });

  test("two sessions started within the same minute: each exit prints a prefix that tells them apart", async () => {
    const { world, tmux } = await start(undefined, {});
    tmux.type("the first");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    const first = COME_BACK.exec(joined(await quit(tmux)))?.[1];
    const second = open(world);
    await second.waitFor("›");
    second.type("the second");
    second.sendKeys("Enter");
    await second.waitFor(/↑\d/);
    const other = COME_BACK.exec(joined(await quit(second)))?.[1];
    expect(first).toBeDefined();
    expect(other).toBeDefined();
    // UUIDv7 ids of one minute share their first 8 digits: the prefix is as long as it must be to name this one.
    const back = open(world, { args: ["--session", other!] });
    const screen = await back.waitFor("the second");
    expect(screen).not.toContain("the first");
  });
});
