/**
 * The live view shows an answer as the replay (`-c`, `/resume`, Alt+O) will: thinking above the
 * text it came before.
 */
import { expect, test } from "bun:test";
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
  }
});
