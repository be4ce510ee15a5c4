/**
 * Which session is the most recent is one answer everywhere: after a /fork and a /clone, `pig -c`,
 * `pig sessions list` and `/resume` all put the copy made last first, each copy listed at its own
 * time and under the source's name marked as what it is.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable, type TmuxSession } from "../helpers/tmux.ts";

const { start, open } = interactivePig();

/** The screen with its wrapped lines joined: what pig printed, at any width (pig wraps its lines at words). */
const joined = (screen: string) => screen.replace(/\n/g, " ");

async function submit(tmux: TmuxSession, text: string, until: string | RegExp): Promise<void> {
  tmux.type(text);
  await tmux.waitFor(text);
  tmux.sendKeys("Enter");
  await tmux.waitFor((screen) => (typeof until === "string" ? joined(screen).includes(until) : until.test(screen)));
}

/** The row of each title in the screen, top to bottom (-1: not shown). */
function rowsOf(screen: string, titles: RegExp[]): number[] {
  const lines = screen.split("\n");
  return titles.map((title) => lines.findIndex((line) => title.test(line)));
}

const CLONE = /alpha work \(clone\)/;
const FORK = /alpha work \(fork\)/;
const ORIGINAL = /alpha work(?! \()/;

describeNeeding("tmux", tmuxAvailable(), "the most recent session, after a fork and a clone", () => {
  for (const width of [100, 40]) {
    test(`pig -c, pig sessions list and /resume agree: clone, then fork, then the original (${width} columns)`, async () => {
      const { world, tmux } = await start(undefined, { width });
      await submit(tmux, "alpha question", /↑\d/);
      await submit(tmux, "/name alpha work", "Session name: alpha work");
      // A fork from before the first message: the message comes back to the editor, sent again.
      tmux.type("/fork");
      tmux.sendKeys("Enter");
      await tmux.waitFor("Fork from which message?");
      tmux.sendKeys("Enter");
      await tmux.waitFor((screen) => (screen.match(/› alpha question/g) ?? []).length >= 2);
      tmux.sendKeys("Enter");
      await tmux.waitFor((screen) => (screen.match(/↑\d/g) ?? []).length >= 2);
      await submit(tmux, "/clone", "Cloned the current branch into a new session.");
      tmux.sendKeys("C-c", "C-c");
      await tmux.waitForExit();

      const listed = await world.run(["sessions", "list"]);
      expect(listed.code).toBe(0);
      const titles = listed.stdout.split("\n").filter((line) => /^\d{4}-/.test(line));
      expect(titles).toHaveLength(3);
      expect(titles[0]).toContain("alpha work (clone)");
      expect(titles[1]).toContain("alpha work (fork)");
      expect(titles[2]).toMatch(/alpha work — alpha question/);
      // Each copy at its own time: the listed minutes never go back in time down the list.
      const minutes = titles.map((line) => line.slice(0, 16));
      expect([...minutes].sort().reverse()).toEqual(minutes);

      const again = open(world, { args: ["-c"], width });
      await again.waitFor((screen) => /Session [0-9a-f-]{8,} "alpha work \(clone\)"/.test(joined(screen)));
      again.type("/resume");
      again.sendKeys("Enter");
      await again.waitFor("Resume a session");
      const picker = (s: string) => s.slice(s.lastIndexOf("Resume a session"));
      const screen = await again.waitFor((s) => rowsOf(picker(s), [CLONE, FORK, ORIGINAL]).every((row) => row >= 0));
      const [clone, fork, original] = rowsOf(picker(screen), [CLONE, FORK, ORIGINAL]);
      expect(clone).toBeLessThan(fork!);
      expect(fork).toBeLessThan(original!);
    });
  }
});
