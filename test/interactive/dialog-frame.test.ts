/** A dialog's frame followed on a fake terminal, and replaced by one line when the dialog closes. */
import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { CursorTracker, DialogFrame } from "../../src/modes/interactive/dialog-frame.ts";
import { closedDialogLine, createDialogs } from "../../src/modes/interactive/dialogs.ts";
import { FakeTerminal } from "./input/fake-terminal.ts";

function fakeTerminal(columns: number, rows: number) {
  const writes: string[] = [];
  return { writes, terminal: { columns, rows, isTTY: true, write: (text: string) => void writes.push(text) } };
}

describe("CursorTracker", () => {
  test("counts newlines and the rows long text wraps onto", () => {
    const cursor = new CursorTracker(() => 10);
    cursor.feed("abc\n");
    expect([cursor.row, cursor.column]).toEqual([1, 0]);
    cursor.feed("x".repeat(25));
    expect([cursor.row, cursor.column]).toEqual([3, 5]);
  });

  test("filling the last column waits for the next character to wrap; a newline then goes down one row", () => {
    const cursor = new CursorTracker(() => 4);
    cursor.feed("abcd");
    expect([cursor.row, cursor.column]).toEqual([0, 4]);
    cursor.feed("\n");
    expect([cursor.row, cursor.column]).toEqual([1, 0]);
    cursor.feed("abcde");
    expect([cursor.row, cursor.column]).toEqual([2, 1]);
  });

  test("follows cursor moves, never above the first row; colours and erasing do not move it", () => {
    const cursor = new CursorTracker(() => 80);
    cursor.feed("one\ntwo\nthree\n\x1b[2A\x1b[2K\x1b[1A\x1b[G");
    expect([cursor.row, cursor.column]).toEqual([0, 0]);
    cursor.feed("\x1b[3B\x1b[5C\x1b[32mgreen\x1b[39m\x1b[J");
    expect([cursor.row, cursor.column]).toEqual([3, 10]);
    cursor.feed("\x1b[999D\x1b[9A");
    expect([cursor.row, cursor.column]).toEqual([0, 0]);
  });

  test("wide characters take two columns", () => {
    const cursor = new CursorTracker(() => 5);
    cursor.feed("日本語");
    expect([cursor.row, cursor.column]).toEqual([1, 2]);
  });
});

describe("DialogFrame", () => {
  test("passes the output on, then writes one line over its first row and erases the rows below", () => {
    const { writes, terminal } = fakeTerminal(10, 24);
    const frame = new DialogFrame(terminal);
    frame.write("│\n◆  Pick\n│  ● a very long option\n└\n");
    frame.replaceWith("◇ Pick · a");
    expect(writes[0]).toBe("│\n◆  Pick\n│  ● a very long option\n└\n");
    // Six rows: the option takes three at 10 columns.
    expect(writes[1]).toBe("\r\x1b[6A◇ Pick · a\r\n\x1b[J");
  });

  test("never goes further up than the screen, and cuts the line to its width", () => {
    const { writes, terminal } = fakeTerminal(8, 4);
    const frame = new DialogFrame(terminal);
    frame.write("1\n2\n3\n4\n5\n6\n");
    frame.replaceWith("a line longer than eight");
    expect(writes[1]).toBe("\r\x1b[3Aa line …\r\n\x1b[J");
  });

  test("reports the terminal's size to the dialog", () => {
    const frame = new DialogFrame(fakeTerminal(33, 11).terminal);
    expect([frame.columns, frame.rows, frame.isTTY]).toEqual([33, 11, true]);
  });
});

describe("closed dialogs", () => {
  const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

  test("the line names the question and the answer, or says it was cancelled", () => {
    expect(plain(closedDialogLine("Model", "fake/fake-reasoner"))).toBe("◇ Model · fake/fake-reasoner");
    expect(plain(closedDialogLine("Model", undefined))).toBe("■ Model · cancelled");
    expect(plain(closedDialogLine("Fork from\nwhich message?", "  line one\n line two "))).toBe("◇ Fork from which message? · line one line two");
  });

  /** Dialogs on a fake terminal of their own; `type` sends keys once the dialog has drawn (and so listens). */
  function harness() {
    const input = new PassThrough();
    const { writes, terminal } = fakeTerminal(80, 24);
    const dialogs = createDialogs({ input, output: terminal });
    const type = async (...keys: string[]) => {
      while (writes.length === 0) await Bun.sleep(5);
      for (const key of keys) input.write(key);
    };
    return { dialogs, type, writes, last: () => plain(writes.at(-1) ?? "") };
  }

  test("a pick closes on the option chosen", async () => {
    const h = harness();
    const pick = h.dialogs.pick("Which?", [{ value: 1, label: "first" }, { value: 2, label: "second" }]);
    await h.type("\x1b[B", "\r");
    expect(await pick).toBe(2);
    expect(h.last()).toMatch(/^\r\x1b\[\d+A◇ Which\? · second\x1b\[K\r\n\x1b\[J$/);
  });

  test("on a screen, what was above the dialog stays and its frame is gone, also when it scrolled", async () => {
    // Twelve rows: the output fills half of them, so the frame scrolls the screen.
    const screen = new FakeTerminal(30, 12);
    screen.write("one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\n");
    const input = new PassThrough();
    // The terminal's output processing turns "\n" into "\r\n", as a tty does.
    const tty = { columns: 30, rows: 12, isTTY: true, write: (text: string) => screen.write(text.replace(/\r?\n/g, "\r\n")) };
    const dialogs = createDialogs({ input, output: tty });
    const options = ["first option", "second option, long enough to wrap at thirty columns"].map((label, value) => ({ value, label }));
    const pick = dialogs.pick("Which one?", options);
    while (!screen.lines().some((line) => line.includes("first option"))) await Bun.sleep(5);
    input.write("\x1b[B");
    input.write("\r");
    expect(await pick).toBe(1);
    expect(screen.scrollback.length).toBeGreaterThan(0);
    // The rows scrolled off and the rows on screen: the output, then the one line.
    expect([...screen.scrollback, ...screen.lines()].map(plain)).toEqual(["one", "two", "three", "four", "five", "six", "◇ Which one? · second option,…"]);
  });

  test("a question or an option with escape sequences and controls shows them and writes none of them", async () => {
    const h = harness();
    const sure = h.dialogs.confirm("Run this command?\nrm -rf DIR \x1b[2K\r\x1b[1A\x1b[2K\recho hello # harmless");
    await h.type("n");
    expect(await sure).toBe(false);
    const written = h.writes.join("");
    expect(written).toContain("rm -rf DIR ␛[2K␍␛[1A␛[2K␍echo hello # harmless");
    expect(written).not.toContain("DIR \x1b[2K");
    expect(written).not.toContain("\r\x1b[1A\x1b[2K\recho");

    const h2 = harness();
    const pick = h2.dialogs.pick("Which\x1b]52;c;aGk=\x07?", [{ value: 1, label: "\u202eevil" }, { value: 2, label: "fine" }]);
    await h2.type("\r");
    expect(await pick).toBe(1);
    const all = h2.writes.join("");
    expect(all).toContain("Which␛]52;c;aGk=␇?");
    expect(all).toContain("\\u202eevil");
    expect(all).not.toContain("\x1b]52");
    expect(all).not.toContain("\u202e");
  });

  test("a question closes on the answer; a masked one does not show the key typed", async () => {
    const h1 = harness();
    const ask = h1.dialogs.ask("Name?");
    await h1.type("Ada", "\r");
    expect(await ask).toBe("Ada");
    expect(h1.last()).toContain("◇ Name? · Ada\x1b[K\r\n");

    const h2 = harness();
    const key = h2.dialogs.ask("Key?", { mask: true });
    await h2.type("s3cret", "\r");
    expect(await key).toBe("s3cret");
    expect(h2.last()).toContain("◇ Key? · entered\x1b[K\r\n");
    expect(h2.writes.join("")).not.toContain("s3cret");
  });

  test("a confirmation closes on Yes or No, or cancelled", async () => {
    const h1 = harness();
    const yes = h1.dialogs.confirm("Sure?", false);
    await h1.type("y");
    expect(await yes).toBe(true);
    expect(h1.last()).toContain("◇ Sure? · Yes\x1b[K\r\n");

    const h2 = harness();
    const cancelled = h2.dialogs.confirm("Sure?");
    await h2.type("\x1b");
    expect(await cancelled).toBe(false);
    expect(h2.last()).toContain("■ Sure? · cancelled\x1b[K\r\n");
  });
});
