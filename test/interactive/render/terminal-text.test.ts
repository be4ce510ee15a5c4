import { describe, expect, test } from "bun:test";
import { commandOutput, commandOutputLine, printable, printableLine, styledLine } from "../../../src/modes/interactive/render/terminal-text.ts";

describe("printable", () => {
  test("CRLF becomes LF; a bare carriage return is shown, not obeyed", () => {
    expect(printable("a\r\nb\r\n")).toBe("a\nb\n");
    expect(printableLine("rm -rf /\rls")).toBe("rm -rf /␍ls");
  });

  test("tabs go to the next multiple of four columns", () => {
    expect(printableLine("a\tbc\td")).toBe("a   bc  d");
  });

  test("colours, links, cursor moves, screen clears, titles and bells are shown, none kept", () => {
    expect(printableLine("\x1b[2J\x1b[H\x1b[31mred\x1b[0m\x07!")).toBe("␛[2J␛[H␛[31mred␛[0m␇!");
    expect(printableLine("\x1b]8;;https://x.org\x07x\x1b]8;;\x07")).toBe("␛]8;;https://x.org␇x␛]8;;␇");
    expect(printableLine("\x1b]0;title\x07text")).toBe("␛]0;title␇text");
    expect(printableLine("\u202eabc")).toBe("\\u202eabc");
  });

  test("line separators are spaces; accents are composed with their letters", () => {
    expect(printableLine("a\u2028b")).toBe("a b");
    expect(printableLine("e\u0301")).toBe("é");
  });
});

describe("commandOutput", () => {
  test("a line's carriage returns keep what was written last (a progress bar's end)", () => {
    expect(commandOutputLine("10%\r50%\r100%")).toBe("100%");
    expect(commandOutput("a\r\n10%\r100%\r\n")).toBe("a\n100%\n");
  });

  test("a program's colours and links are left out; what would move the cursor is shown", () => {
    expect(commandOutputLine("\x1b[31mred\x1b[0m \x1b]8;;https://x.org\x07x\x1b]8;;\x07")).toBe("red x");
    expect(commandOutputLine("\x1b[2Kdone\x1b]52;c;aGk=\x07")).toBe("␛[2Kdone␛]52;c;aGk=␇");
  });
});

describe("styledLine", () => {
  test("pig's colours and links stay and take no columns for tabs; anything else is shown", () => {
    expect(styledLine("\x1b[31mab\x1b[39m\tc")).toBe("\x1b[31mab\x1b[39m  c");
    const link = "\x1b]8;;https://x.org\x07x\x1b]8;;\x07";
    expect(styledLine(link)).toBe(link);
    expect(styledLine("\x1b[1mok\x1b[22m\x1b[1A\r")).toBe("\x1b[1mok\x1b[22m␛[1A␍");
  });
});
