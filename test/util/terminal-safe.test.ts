import { describe, expect, test } from "bun:test";
import { terminalSafe } from "../../src/util/terminal-safe.ts";
import { expectHostileShown, expectNoHostileBytes, HOSTILE } from "../helpers/hostile-text.ts";

describe("terminalSafe", () => {
  test("the hostile corpus comes out with every control shown and none left", () => {
    const safe = terminalSafe(HOSTILE);
    expectNoHostileBytes(safe);
    expectHostileShown(safe);
    expect(safe).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  test("escape sequences read as text: ESC as ␛, the rest of the sequence as it was", () => {
    expect(terminalSafe("rm -rf DIR \x1b[2K\r\x1b[1A\x1b[2K\recho hello # harmless")).toBe("rm -rf DIR ␛[2K␍␛[1A␛[2K␍echo hello # harmless");
    expect(terminalSafe("\x1b]52;c;aGk=\x07")).toBe("␛]52;c;aGk=␇");
    expect(terminalSafe("\x1bPdata\x1b\\")).toBe("␛Pdata␛\\");
  });

  test("C0 as Control Pictures, DEL as ␡, C1 and bidi controls as \\u escapes", () => {
    expect(terminalSafe("\x00\x07\x08\x0b\x0c\x1f")).toBe("␀␇␈␋␌␟");
    expect(terminalSafe("a\x7fb")).toBe("a␡b");
    expect(terminalSafe("\x85\x9b2J\x9d0;t\x9c")).toBe("\\u0085\\u009b2J\\u009d0;t\\u009c");
    expect(terminalSafe("a\u202ab\u202bc\u202cd\u202de\u202ef\u2066g\u2067h\u2068i\u2069")).toBe(
      "a\\u202ab\\u202bc\\u202cd\\u202de\\u202ef\\u2066g\\u2067h\\u2068i\\u2069",
    );
  });

  test("newlines and tabs stay, a CR ending a line goes with the line end, a bare CR is shown", () => {
    expect(terminalSafe("one\ttwo\nthree")).toBe("one\ttwo\nthree");
    expect(terminalSafe("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(terminalSafe("safe\rdanger")).toBe("safe␍danger");
    expect(terminalSafe("end\r")).toBe("end␍");
    expect(terminalSafe("a\tb", { tabs: "show" })).toBe("a␉b");
  });

  test("ordinary text, accents, wide characters and right-to-left letters are left alone", () => {
    const text = "héllo 世界 🐷 שלום مرحبا \u200f x";
    expect(terminalSafe(text)).toBe(text);
  });

  test("colours in text from outside are shown, not applied", () => {
    expect(terminalSafe("\x1b[31mred\x1b[0m")).toBe("␛[31mred␛[0m");
  });

  test("styled text keeps pig's colours and links and shows everything else", () => {
    const link = "\x1b]8;;https://example.com/\x07site\x1b]8;;\x07";
    expect(terminalSafe(`\x1b[1mbold\x1b[22m ${link}`, { styled: true })).toBe(`\x1b[1mbold\x1b[22m ${link}`);
    expect(terminalSafe("\x1b[1mok\x1b[22m\x1b[2K\x1b]52;c;aGk=\x07\r\x9b", { styled: true })).toBe("\x1b[1mok\x1b[22m␛[2K␛]52;c;aGk=␇␍\\u009b");
    // A link whose target holds a control is not pig's: shown.
    expect(terminalSafe("\x1b]8;;http://x/\x1b[2K\x07t", { styled: true })).toBe("␛]8;;http://x/␛[2K␇t");
  });

  test("making text safe twice changes nothing more", () => {
    const once = terminalSafe(HOSTILE);
    expect(terminalSafe(once)).toBe(once);
    expect(terminalSafe(once, { styled: true })).toBe(once);
  });
});
