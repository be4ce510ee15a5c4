/**
 * The live view shows an answer as the replay (`-c`, `/resume`, Alt+O) will: thinking above the
 * text it came before, each of several tool calls run at once in its own block (its call line,
 * its own live output, its result and how long it took) numbered for `/expand N` as the replay
 * numbers them, and a replay that begins inside a tall block still shows that block's call line.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { track } = interactivePig();

/** pig in a tall window (a whole answer stays on the screen), its prompt showing. */
async function pigIn(world: PigWorld, width: number, args: string[] = []): Promise<TmuxSession> {
  const tmux = track(
    TmuxSession.start({ command: [pigBinary(), ...args], cwd: world.cwd, width, height: 60, env: { ...world.env, TERM: "xterm-256color" } }),
  );
  await tmux.waitFor("›");
  return tmux;
}

/** Leaves pig, so the session can be opened again. */
async function quit(tmux: TmuxSession): Promise<void> {
  tmux.type("/quit");
  tmux.sendKeys("Enter");
  await tmux.waitForExit();
}

async function worldWith(script: unknown, options: WorldOptions = {}): Promise<PigWorld> {
  return track(await createWorld({ ...options, llm: { script: script as Script } }));
}

/** Where each text first shows on the screen, failing when one does not. */
function positions(screen: string, texts: readonly string[]): number[] {
  return texts.map((text) => {
    const at = screen.indexOf(text);
    if (at < 0) throw new Error(`"${text}" is not on the screen:\n${screen}`);
    return at;
  });
}

const ascending = (numbers: number[]) => numbers.every((n, i) => i === 0 || n > numbers[i - 1]!);

const PARAGRAPHS = Array.from({ length: 3 }, (_, i) => `Paragraph ${i + 1} of the answer, long enough to wrap at forty columns.`).join("\n\n");

/** A command that prints its twelve lines, then waits for the test's marker file before its last one. */
const loop = (name: string) => `seq -f ${name}-%g 12; until [ -e go-${name} ]; do sleep 0.05; done; echo ${name}-end`;

const PARALLEL = {
  responses: [
    {
      toolCalls: [
        { name: "read", arguments: { path: "notes.txt" } },
        { name: "read", arguments: { path: "missing.txt" } },
        { name: "bash", arguments: { command: loop("alpha") } },
        { name: "bash", arguments: { command: loop("beta") } },
      ],
    },
    { text: "All four done." },
  ],
};

const NOTES = `${Array.from({ length: 12 }, (_, i) => `note ${i + 1}`).join("\n")}\n`;

/** The rows of each tool block on the screen, from its call line to the next call line or the answer. */
function toolBlocks(screen: string): string[] {
  const rows = screen.split("\n");
  const blocks: string[] = [];
  let current: string[] | undefined;
  for (const row of rows) {
    if (row.startsWith("● ")) {
      if (current) blocks.push(current.join("\n"));
      current = [row];
    } else if (current && (row.startsWith("  ") || row === "")) current.push(row);
    else if (current) {
      blocks.push(current.join("\n"));
      current = undefined;
    }
  }
  if (current) blocks.push(current.join("\n"));
  return blocks;
}

describeNeeding("tmux", tmuxAvailable(), "the live view keeps the replay's order", () => {
  for (const width of [100, 40]) {
    test(`thinking shows above the paragraphs printed while the answer streams (${width} columns)`, async () => {
      const world = await worldWith({
        responses: [{ thinking: "First I weigh the question.\nThen I choose the words.", text: PARAGRAPHS, chunkSize: 12, chunkDelayMs: 5 }],
      });
      const tmux = await pigIn(world, width);
      tmux.type("explain");
      tmux.sendKeys("Enter");
      // The line of numbers under a finished answer.
      const screen = await tmux.waitFor(/Paragraph 3[^]*of 128k/);
      expect(ascending(positions(screen, ["› explain", "thinking: First I weigh", "Then I choose the words.", "Paragraph 1", "Paragraph 2", "Paragraph 3"]))).toBe(true);
      // The replay of the same answer reads the same.
      await quit(tmux);
      const again = await pigIn(world, width, ["-c"]);
      const replayed = await again.waitFor("end of the saved conversation");
      expect(ascending(positions(replayed, ["› explain", "thinking: First I weigh", "Then I choose the words.", "Paragraph 1", "Paragraph 3"]))).toBe(true);
    });

    test(`tool calls run at once each get their own block, live output and time, numbered as the replay numbers them (${width} columns)`, async () => {
      const world = await worldWith(PARALLEL, { files: { "notes.txt": NOTES } });
      const tmux = await pigIn(world, width);
      tmux.type("look around");
      tmux.sendKeys("Enter");
      // Both commands' output shows while both run.
      await tmux.waitFor((s) => s.includes("alpha-12") && s.includes("beta-12"));
      // The second command ends first; the first still runs and its output still shows.
      writeFileSync(join(world.cwd, "go-beta"), "");
      await tmux.waitFor((s) => /● bash {2}seq -f beta[^\n]*\n {2}done, took /.test(s) && s.includes("alpha-12") && !s.includes("All four done."));
      writeFileSync(join(world.cwd, "go-alpha"), "");
      const screen = await tmux.waitFor("All four done.");
      const live = toolBlocks(screen.slice(screen.indexOf("› look around")));
      expect(live).toHaveLength(4);
      expect(live[0]).toMatch(/^● read {2}notes\.txt/);
      expect(live[0]).toContain("│ note 1");
      expect(live[0]).toContain("/expand 1");
      expect(live[1]).toMatch(/^● read {2}missing\.txt/);
      expect(live[1]).toContain("✗ read failed");
      expect(live[2]).toMatch(/^● bash {2}seq -f alpha/);
      expect(live[2]).toContain("│ alpha-end");
      expect(live[2]).not.toContain("beta");
      expect(live[2]).toContain("/expand 3");
      expect(live[3]).toMatch(/^● bash {2}seq -f beta/);
      expect(live[3]).toContain("│ beta-end");
      expect(live[3]).not.toContain("alpha");
      expect(live[3]).toContain("/expand 4");
      // Each block says how long its call took.
      for (const block of live) expect(block).toMatch(/\n {2}took \d+(ms|\.\ds|s)$/);
      // /expand names the blocks as they show.
      tmux.type("/expand 4");
      tmux.sendKeys("Enter");
      const expanded = await tmux.waitFor("Result 4 in full:");
      expect(expanded.slice(expanded.indexOf("Result 4 in full:"))).toMatch(/Result 4 in full:\n● bash {2}seq -f beta/);
      // The replay shows the same blocks in the same order under the same numbers.
      await quit(tmux);
      const again = await pigIn(world, width, ["-c"]);
      const replayed = await again.waitFor("end of the saved conversation");
      const blocks = toolBlocks(replayed);
      expect(blocks.map((b) => b.split("\n")[0])).toEqual(live.map((b) => b.split("\n")[0]));
      expect(blocks.map((b) => /\/expand (\d+)/.exec(b)?.[1])).toEqual(["1", undefined, "3", "4"]);
    });

    test(`the replay after Alt+O begins a tall result with its call line (${width} columns)`, async () => {
      const world = await worldWith(
        { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "seq -f row-%g 200" } }] }, { text: "Counted." }] },
        { settings: { replayScreens: 1 } },
      );
      expect((await world.run(["-p", "count"])).code).toBe(0);
      const tmux = await pigIn(world, width, ["-c"]);
      await tmux.waitFor("end of the saved conversation");
      tmux.sendKeys("M-o");
      // Collapsed, the result showed its last eight rows; whole, the rows above them show too.
      const replay = await tmux.waitFor((s) => s.includes("│ row-180") && s.slice(s.indexOf("│ row-180")).includes("end of the saved conversation"));
      // The result is cut where the screen ends, and says so under its call line.
      expect(replay).toMatch(/● bash {2}seq -f row-%g 200\n {2}… \d+ earlier rows · \/expand 1\n {2}│ row-\d+\n(.*\n)* {2}│ row-200\nCounted\./);
    });
  }
});
