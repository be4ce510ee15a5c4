import { describe, expect, test } from "bun:test";
import { printable, printableLine } from "../../../src/modes/interactive/render/terminal-text.ts";

describe("printable", () => {
  test("CRLF becomes LF; a line's carriage returns keep what was written last", () => {
    expect(printable("a\r\nb\r\n")).toBe("a\nb\n");
    expect(printableLine("10%\r50%\r100%")).toBe("100%");
  });

  test("tabs go to the next multiple of four columns, colours not counted", () => {
    expect(printableLine("a\tbc\td")).toBe("a   bc  d");
    expect(printableLine("\x1b[31mab\x1b[39m\tc")).toBe("\x1b[31mab\x1b[39m  c");
  });

  test("colours and OSC 8 links stay; cursor moves, screen clears and bells go", () => {
    expect(printableLine("\x1b[2J\x1b[H\x1b[31mred\x1b[0m\x07!")).toBe("\x1b[31mred\x1b[0m!");
    const link = "\x1b]8;;https://x.org\x07x\x1b]8;;\x07";
    expect(printableLine(link)).toBe(link);
    expect(printableLine("\x1b]0;title\x07text")).toBe("text");
  });

  test("line separators are spaces; accents are composed with their letters", () => {
    expect(printableLine("a\u2028b")).toBe("a b");
    expect(printableLine("e\u0301")).toBe("é");
  });
});
