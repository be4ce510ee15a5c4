import { describe, expect, test } from "bun:test";
import { PromptRenderer } from "../../../src/modes/interactive/input/render.ts";
import { FakeTerminal } from "./fake-terminal.ts";

function setup(columns = 40, rows = 10, text = "typed", status: string[] = []) {
  const terminal = new FakeTerminal(columns, rows);
  const renderer = new PromptRenderer(terminal);
  renderer.setView({ text, cursor: text.length, status });
  renderer.redraw();
  return { terminal, renderer };
}

describe("printing above the prompt", () => {
  test("output lines go above the prompt, which stays below them", () => {
    const { terminal, renderer } = setup();
    renderer.print("first\n");
    renderer.print("second\nthird\n");
    expect(terminal.lines()).toEqual(["first", "second", "third", "› typed"]);
    expect({ x: terminal.x, y: terminal.y }).toEqual({ x: 7, y: 3 });
  });

  test("streamed text without newlines appears progressively on one row above the prompt", () => {
    const { terminal, renderer } = setup();
    renderer.print("hel");
    expect(terminal.lines()).toEqual(["hel", "› typed"]);
    renderer.print("lo wor");
    renderer.print("ld\nnext");
    expect(terminal.lines()).toEqual(["hello world", "next", "› typed"]);
    expect({ x: terminal.x, y: terminal.y }).toEqual({ x: 7, y: 2 });
  });

  test("a partial line longer than the width continues where the terminal wrapped it", () => {
    const { terminal, renderer } = setup(10);
    renderer.print("abcdefgh");
    renderer.print("ijklm");
    renderer.print("n\n");
    expect(terminal.lines()).toEqual(["abcdefghij", "klmn", "› typed"]);
  });

  test("a partial line ending exactly at the width: the next text and a newline go to the following row", () => {
    const { terminal, renderer } = setup(10);
    renderer.print("0123456789");
    renderer.print("abc\n");
    renderer.print("0123456789");
    renderer.print("\nnext\n");
    expect(terminal.lines()).toEqual(["0123456789", "abc", "0123456789", "next", "› typed"]);
  });

  test("a wide character that does not fit at the end of a partial row wraps like the terminal does", () => {
    const { terminal, renderer } = setup(10);
    renderer.print("abcdefghi");
    renderer.print("中x\n");
    expect(terminal.lines()).toEqual(["abcdefghi", "中x", "› typed"]);
  });

  test("a tall prompt (status lines, wrapped input) is erased completely before output", () => {
    const { terminal, renderer } = setup(12, 10, "a long input that wraps", ["2 queued: x", "⠋ working"]);
    renderer.print("out 1\n");
    renderer.print("out 2\n");
    expect(terminal.lines()).toEqual(["out 1", "out 2", "2 queued: x", "⠋ working", "› a long", "  input that", "  wraps"]);
  });

  test("once the screen is full, output scrolls and the prompt stays on the last rows", () => {
    const { terminal, renderer } = setup(20, 5);
    for (let i = 1; i <= 12; i++) renderer.print(`line ${i}\n`);
    expect(terminal.lines()).toEqual(["line 9", "line 10", "line 11", "line 12", "› typed"]);
    expect(terminal.scrollback.slice(-8)).toEqual(["line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]);
  });
});

describe("text style across the prompt", () => {
  test("the prompt is drawn unstyled and the output's style is restored when it continues", () => {
    const { terminal, renderer } = setup();
    renderer.print("\x1b[1m\x1b[36mbold cyan");
    const before = terminal.written.length;
    renderer.print(" still\x1b[39m\x1b[22m plain\n");
    const continued = terminal.written.slice(before);
    expect(continued.indexOf("\x1b[1m\x1b[36m")).toBeLessThan(continued.indexOf(" still"));
    expect(terminal.written.slice(terminal.written.lastIndexOf("› typed") - 4)).toStartWith("\x1b[0m");
  });
});

describe("redrawing", () => {
  test("a new view replaces the old prompt rows", () => {
    const { terminal, renderer } = setup(20, 10, "one\ntwo\nthree");
    renderer.setView({ text: "x", cursor: 1, status: ["status"] });
    expect(terminal.lines()).toEqual(["status", "› x"]);
  });

  test("an unchanged view is not written again", () => {
    const { terminal, renderer } = setup();
    const before = terminal.written.length;
    renderer.setView({ text: "typed", cursor: 5, status: [] });
    expect(terminal.written.length).toBe(before);
  });

  test("clear hides the prompt for output written by others; redraw brings it back below", () => {
    const { terminal, renderer } = setup();
    renderer.print("partial");
    renderer.clear();
    terminal.write("from a subprocess\r\n");
    renderer.redraw();
    expect(terminal.lines()).toEqual(["partial", "from a subprocess", "› typed"]);
  });

  test("the cursor goes to its place in a wrapped, multi-line buffer", () => {
    const terminal = new FakeTerminal(10, 10);
    const renderer = new PromptRenderer(terminal);
    renderer.setView({ text: "abcdefghijk\n中文", cursor: 13, status: [] });
    renderer.redraw();
    expect(terminal.lines()).toEqual(["› abcdefgh", "  ijk", "  中文"]);
    expect({ x: terminal.x, y: terminal.y }).toEqual({ x: 4, y: 2 });
  });
});

describe("plain mode", () => {
  test("output passes through and no prompt is drawn", () => {
    const written: string[] = [];
    const renderer = new PromptRenderer({ write: (text) => written.push(text) }, { plain: true });
    renderer.setView({ text: "typed", cursor: 5, status: ["status"] });
    renderer.redraw();
    renderer.print("hello\n");
    expect(written).toEqual(["hello\n"]);
  });
});

describe("frames", () => {
  /** A renderer writing at most once a frame, on a clock the test moves; and its terminal's writes counted. */
  function framed(columns: number) {
    const terminal = new FakeTerminal(columns, 10);
    let writes = 0;
    const write = terminal.write.bind(terminal);
    terminal.write = (text: string) => {
      writes++;
      return write(text);
    };
    let now = 1000;
    const renderer = new PromptRenderer(terminal, { frameMs: 33, now: () => now });
    return { terminal, renderer, writes: () => writes, tick: (ms: number) => (now += ms) };
  }

  test("what comes within a frame is written once, and leaves the screen as writing each piece at once does", () => {
    const pieces = ["abc", "defghijkl", "mn\nsecond line\n", "0123456789", "\nwide 中", "文 end\npartial"];
    const { terminal: direct, renderer: plain } = setup(10);
    const f = framed(10);
    f.renderer.setView({ text: "typed", cursor: 5, status: [] });
    f.renderer.redraw();
    f.tick(40);
    const before = f.writes();
    for (const [i, piece] of pieces.entries()) {
      plain.print(piece);
      f.renderer.print(piece);
      const status = [`status ${i}`];
      plain.setView({ text: "typed", cursor: 5, status });
      f.renderer.setView({ text: "typed", cursor: 5, status });
    }
    // The first piece followed a quiet moment and was written at once; the rest waits for the frame.
    expect(f.writes() - before).toBe(1);
    f.renderer.flush();
    expect(f.writes() - before).toBe(2);
    expect(f.terminal.lines()).toEqual(direct.lines());
    expect({ x: f.terminal.x, y: f.terminal.y }).toEqual({ x: direct.x, y: direct.y });
  });

  test("after a quiet frame a change is written at once; clear writes what was pending first", () => {
    const f = framed(40);
    f.renderer.setView({ text: "", cursor: 0, status: [] });
    f.renderer.redraw();
    f.tick(40);
    f.renderer.print("one\n");
    f.renderer.print("two\n");
    expect(f.terminal.lines()).toEqual(["one", "›"]);
    f.renderer.clear();
    expect(f.terminal.lines()).toEqual(["one", "two"]);
    f.renderer.redraw();
    f.tick(40);
    f.renderer.setView({ text: "x", cursor: 1, status: [] });
    expect(f.terminal.lines()).toEqual(["one", "two", "› x"]);
  });

  test("a pending frame is written by itself when the frame is over", async () => {
    const terminal = new FakeTerminal(40, 10);
    const renderer = new PromptRenderer(terminal, { frameMs: 5 });
    renderer.setView({ text: "", cursor: 0, status: [] });
    renderer.redraw();
    renderer.print("one\n");
    renderer.print("two\n");
    while (!terminal.lines().includes("two")) await Bun.sleep(1);
    expect(terminal.lines()).toEqual(["one", "two", "›"]);
  });
});
