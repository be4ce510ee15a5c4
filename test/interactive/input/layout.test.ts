import { describe, expect, test } from "bun:test";
import { layoutPrompt, PLAIN_STYLE, wrapInput } from "../../../src/modes/interactive/input/layout.ts";

function view(text: string, cursor = text.length, status: string[] = []) {
  return { text, cursor, status };
}

describe("wrapping the input", () => {
  test("a line longer than the width wraps; the cursor follows", () => {
    expect(wrapInput("abcdefgh", 8, 5)).toEqual({ rows: ["abcde", "fgh"], cursorRow: 1, cursorCol: 3 });
  });

  test("a cursor after a full row is shown at the start of a new row", () => {
    expect(wrapInput("abcde", 5, 5)).toEqual({ rows: ["abcde", ""], cursorRow: 1, cursorCol: 0 });
  });

  test("a cursor on a wrapped character is on the row the character went to", () => {
    expect(wrapInput("abcdefgh", 5, 5)).toEqual({ rows: ["abcde", "fgh"], cursorRow: 1, cursorCol: 0 });
  });

  test("wide characters take two columns and wrap whole", () => {
    expect(wrapInput("ab中文", 3, 5)).toEqual({ rows: ["ab中", "文"], cursorRow: 1, cursorCol: 0 });
    expect(wrapInput("ab中文", 4, 5)).toEqual({ rows: ["ab中", "文"], cursorRow: 1, cursorCol: 2 });
  });

  test("words move whole to the next row; the space at a break hangs at the end of its row", () => {
    expect(wrapInput("hello wonderful world", 21, 12).rows).toEqual(["hello ", "wonderful ", "world"]);
    // The cursor on a moved word is on the row it went to.
    expect(wrapInput("hello wonderful", 8, 10)).toMatchObject({ rows: ["hello ", "wonderful"], cursorRow: 1, cursorCol: 2 });
    // A space that falls exactly at the edge is not drawn; the next word starts the row.
    expect(wrapInput("abcde fgh", 9, 5)).toMatchObject({ rows: ["abcde", "fgh"], cursorRow: 1, cursorCol: 3 });
    // The cursor on a hanging space shows at the start of the next row, never past the last column.
    expect(wrapInput("abcdefgh ijk", 8, 8)).toMatchObject({ rows: ["abcdefgh", "ijk"], cursorRow: 1, cursorCol: 0 });
    expect(wrapInput("abcdefghij klm", 10, 10)).toMatchObject({ rows: ["abcdefghij", "klm"], cursorRow: 1, cursorCol: 0 });
    // A word longer than the row is cut.
    expect(wrapInput("a abcdefghij", 1, 5).rows).toEqual(["a ", "abcde", "fghij"]);
  });

  test("newlines start new rows and tabs show as spaces", () => {
    expect(wrapInput("a\n\tb", 4, 10)).toEqual({ rows: ["a", "    b"], cursorRow: 1, cursorCol: 5 });
  });
});

describe("the prompt area", () => {
  test("status lines go above the input, continuation rows are indented", () => {
    const layout = layoutPrompt(view("one\ntwo", 2, ["2 queued: a | b", "⠋ Working"]), 40, 24);
    expect(layout.lines).toEqual(["2 queued: a | b", "⠋ Working", "› one", "  two"]);
    expect(layout).toMatchObject({ cursorRow: 2, cursorCol: 4 });
  });

  test("footer lines go below the input; the cursor stays on the input", () => {
    const layout = layoutPrompt({ ...view("hi", 2, ["above"]), footer: ["below", "status"] }, 40, 24);
    expect(layout.lines).toEqual(["above", "› hi", "below", "status"]);
    expect(layout).toMatchObject({ cursorRow: 1, cursorCol: 4 });
  });

  test("on a short screen the footer gives way to the input", () => {
    const layout = layoutPrompt({ ...view("hi", 2), footer: ["a", "b", "c", "d"] }, 40, 4);
    expect(layout.lines).toEqual(["› hi", "a", "b"]);
  });

  test("long status lines are truncated to the width, not wrapped", () => {
    const layout = layoutPrompt(view("", 0, ["x".repeat(30)]), 10, 24);
    expect(layout.lines[0]).toBe(`${"x".repeat(9)}…`);
  });

  test("the input wraps at the width minus the marker", () => {
    const layout = layoutPrompt(view("abcdefghij"), 8, 24);
    expect(layout.lines).toEqual(["› abcdef", "  ghij"]);
    expect(layout).toMatchObject({ cursorRow: 1, cursorCol: 6 });
  });

  test("a completion list goes below the input with the selection marked", () => {
    const menu = { items: [{ label: "/session", hint: "Show session" }, { label: "/settings" }], selected: 1 };
    const layout = layoutPrompt({ ...view("/se"), menu }, 40, 24, PLAIN_STYLE);
    expect(layout.lines).toEqual(["› /se", "  /session  Show session", "▸ /settings"]);
    expect(layout.cursorRow).toBe(0);
  });

  test("a buffer taller than the screen shows the rows around the cursor", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    const layout = layoutPrompt(view(text), 40, 10);
    expect(layout.lines.length).toBe(9);
    expect(layout.lines[8]).toBe("  line 29");
    expect(layout.cursorRow).toBe(8);
    const top = layoutPrompt(view(text, 0), 40, 10);
    expect(top.lines[0]).toBe("› line 0");
    expect(top.cursorRow).toBe(0);
  });
});

describe("autocompleteMaxVisible", () => {
  test("the menu shows as many rows as asked, with where it is in the longer list", () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ label: `/item${i}` }));
    const rows = (menuRows?: number) =>
      layoutPrompt({ ...view("/it"), menu: { items, selected: 0, ...(menuRows !== undefined ? { rows: menuRows } : {}) } }, 40, 24, PLAIN_STYLE).lines.filter((l) => l.includes("/item"));
    expect(rows(3)).toHaveLength(3);
    expect(rows(3).at(-1)).toContain("1/12");
    expect(rows(5)).toHaveLength(5);
    expect(rows()).toHaveLength(8);
  });
});
