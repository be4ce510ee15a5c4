/**
 * A long answer streamed as fast as the server can send it, in pieces of a few characters: the
 * view draws it in frames, and the scrollback must still hold every line once, in order, rendered
 * (headings, code in its gutter, a table in its borders), with the prompt usable meanwhile.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

const SECTIONS = 30;

/** Section n: a heading, a paragraph naming it, a fenced block and a one-row table. */
function answer(): string {
  const sections = Array.from({ length: SECTIONS }, (_, i) => {
    const n = i + 1;
    return [`## Heading ${n}`, "", `Paragraph ${n} says **what** it is, with \`code ${n}\` in it.`, "", "```ts", `const value${n} = ${n};`, "```", "", "| key | value |", "| --- | --- |", `| row ${n} | ${n * 7} |`, ""].join("\n");
  });
  return `${sections.join("\n")}\nLast line of the answer.`;
}

describeNeeding("tmux", tmuxAvailable(), "a fast stream in the interactive view", () => {
  test("every line reaches the scrollback once, in order and rendered; typing meanwhile shows in the prompt", async () => {
    // 8 characters every 1 ms: many pieces within every frame, and a stream long enough to type into.
    const { tmux } = await start({ responses: [{ text: answer(), chunkSize: 8, chunkDelayMs: 1 }] });
    tmux.type("write it");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Heading \d/);
    tmux.type("next question");
    // The server's 1 ms waits take far longer on a loaded machine: the whole stream is waited for.
    await tmux.waitFor("Last line of the answer.", 45_000);
    await tmux.waitFor("› next question");
    const history = tmux.captureHistory();
    const order = (label: (n: number) => string) => Array.from({ length: SECTIONS }, (_, i) => history.indexOf(label(i + 1)));
    for (const label of [(n: number) => `## Heading ${n}\n`, (n: number) => `Paragraph ${n} says what it is, with code ${n} in it.`, (n: number) => `│ const value${n} = ${n};`, (n: number) => `│ row ${n} │ ${n * 7}`]) {
      const at = order(label);
      expect(at.every((p) => p >= 0)).toBe(true);
      expect(at.every((p, i) => i === 0 || p > at[i - 1]!)).toBe(true);
      // Once each: nothing drawn twice into the scrollback.
      expect(Array.from({ length: SECTIONS }, (_, i) => history.split(label(i + 1)).length - 1)).toEqual(Array(SECTIONS).fill(1));
    }
    expect(history.split("Last line of the answer.").length - 1).toBe(1);
  });
});
