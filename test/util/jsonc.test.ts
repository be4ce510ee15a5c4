import { describe, expect, test } from "bun:test";
import { parse } from "jsonc-parser";
import { editJsonc, JsoncError, parseJsonc, placeOf } from "../../src/util/jsonc.ts";

describe("parseJsonc", () => {
  test("plain JSON reads as jsonc-parser reads it", () => {
    const text = '{"a": 1, "b": [true, null, "x\\u00e9"], "c": {"d": -2.5e3}, "a": 2}';
    expect(parseJsonc(text)).toEqual(parse(text));
    expect(parseJsonc("[]")).toEqual([]);
    expect(parseJsonc("null")).toBeNull();
  });

  test("comments and trailing commas are read unless strict", () => {
    const text = '{\n  // the model\n  "model": "x", /* and */ "list": [1, 2,],\n}';
    expect(parseJsonc(text)).toEqual({ model: "x", list: [1, 2] });
    expect(() => parseJsonc(text, { strict: true })).toThrow(JsoncError);
  });

  test("a mistake is named with its line and column", () => {
    let error: unknown;
    try {
      parseJsonc('{\n  "a": 1\n  "b": 2\n}');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsoncError);
    expect((error as JsoncError).message).toBe("',' is expected at line 3, column 3");
    expect(() => parseJsonc("  ")).toThrow("a value is expected at line 1, column 3");
  });
});

describe("editJsonc and placeOf", () => {
  test("an edit keeps the comments; places are found in commented text", () => {
    const text = '{\n  // keep me\n  "a": 1\n}\n';
    const edited = editJsonc(text, ["b"], true, { insertSpaces: true, tabSize: 2, eol: "\n" });
    expect(edited).toContain("// keep me");
    expect(parseJsonc(edited)).toEqual({ a: 1, b: true });
    expect(placeOf(text, ["a"])).toBe("line 3, column 8");
  });
});
