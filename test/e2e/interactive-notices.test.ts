/**
 * Errors and notices in a real terminal (tmux): said once, naming what failed and where; a
 * retry is one line that counts down; a refusal is not called a failure; thinking is visible
 * as such.
 */
import { expect, test } from "bun:test";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

async function send(tmux: TmuxSession, text: string, wait: string | RegExp) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

const count = (screen: string, text: string) => screen.split(text).length - 1;

describeNeeding("tmux", tmuxAvailable(), "errors and notices", () => {
  test("a failure names provider, model and URL, once", async () => {
    const { tmux, world } = await start({ responses: [{ error: { status: 400, message: "bad request body" } }] } as unknown as Script);
    const screen = await send(tmux, "hello", /Error: .*bad request body[\s\S]*↑\d/);
    expect(screen).toContain(`fake/fake-model at ${world.llm.url}`);
    expect(count(screen, "bad request body")).toBe(1);
  });

  test("a retry is one line counting down, and a retry that works leaves no error", async () => {
    const { tmux } = await start({ responses: [{ error: { status: 503, message: "overloaded now" } }, { text: "Recovered answer." }] } as unknown as Script, {
      settings: { retry: { baseDelayMs: 1500 } },
    });
    tmux.type("hello");
    tmux.sendKeys("Enter");
    const waiting = await tmux.waitFor(/retrying in \d+(\.\d+)?m?s \(1\/3\)/);
    expect(waiting).toContain("overloaded now · Esc to stop");
    // The note of the retry is printed when the retried answer is over, after its text appears.
    const done = await tmux.waitFor(/Recovered answer\.[\s\S]*\(retried once after/);
    expect(done).not.toContain("Error:");
    expect(done).not.toMatch(/retrying in/);
    expect(count(done, "overloaded now")).toBe(1);
    expect(done).toContain("(retried once after: 503");
  });

  test("/compact on a small session is a refusal said once; a compaction reports itself once", async () => {
    const words = "lorem ipsum dolor sit amet ".repeat(30);
    const { tmux } = await start(
      { responses: [{ when: "context summarization assistant", text: "## Goal\nSummarised." }, { text: "one" }, { text: "two" }, { text: "three" }] } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } } },
    );
    const refused = await send(tmux, "/compact", "Nothing to compact");
    expect(count(refused, "Nothing to compact")).toBe(1);
    expect(refused).not.toMatch(/fail/i);
    for (const text of [`first ${words}`, `second ${words}`, `third ${words}`]) await send(tmux, text, new RegExp(`${text.slice(0, 5)}[\\s\\S]*↑\\d`));
    const compacted = await send(tmux, "/compact", "Summarised.");
    const after = compacted.slice(compacted.lastIndexOf("/compact") >= 0 ? compacted.lastIndexOf("/compact") : compacted.indexOf("Compact"));
    expect(count(after, "Compacted")).toBe(1);
  });

  test("/model says the switch once", async () => {
    const { tmux } = await start(undefined);
    tmux.type("/model");
    tmux.sendKeys("Enter");
    await tmux.waitFor("fake-reasoner");
    tmux.type("reasoner");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("Model: fake/fake-reasoner");
    expect(count(screen, "Model: fake/fake-reasoner")).toBe(1);
    // No defaultThinkingLevel is set: the level in force (off) carries over, as in Pi 0.87.
    expect(screen).toContain("Model: fake/fake-reasoner (thinking: off)");
    expect(screen).not.toContain("Thinking level:");
    // Shift+Tab says the new level, once.
    tmux.sendKeys("BTab");
    const cycled = await tmux.waitFor(/Thinking level: \w+/);
    expect(cycled.match(/Thinking level: \w+/g)).toHaveLength(1);
  });

  test("the spinner says thinking while the model thinks; hidden thinking leaves a mark", async () => {
    const script = { responses: [{ thinking: "Let me consider this carefully.", text: "Thought about it.", chunkDelayMs: 150, chunkSize: 8 }] } as unknown as Script;
    const { tmux } = await start(script, { settings: { hideThinkingBlock: true } });
    tmux.type("think");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/thinking \d+s · Esc to stop/);
    const done = await tmux.waitFor("Thought about it.");
    expect(done).toContain("(thinking hidden · Ctrl+T shows it)");
    expect(done).not.toContain("consider this carefully");
  });

  test("a tool's failure is marked differently from its success", async () => {
    const script = {
      responses: [
        { toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo fine" } }] },
        { text: "Checked." },
      ],
    } as unknown as Script;
    const { tmux } = await start(script);
    const screen = await send(tmux, "check", "Checked.");
    expect(screen).toMatch(/● read {2}missing\.txt\n {2}✗ read failed\n {2}│ .*missing\.txt/);
    expect(screen).toMatch(/● bash {2}echo fine\n {2}│ fine\n/);
    // In colour: the failure's gutter is red, the success's is not.
    const styled = tmux.captureStyled();
    const gutters = [...styled.matchAll(/\x1b\[([0-9;]*)m│/g)].map((m) => m[1]);
    expect(new Set(gutters).size).toBeGreaterThan(1);
  });
});
