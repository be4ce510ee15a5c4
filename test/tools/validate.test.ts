import { describe, expect, test } from "bun:test";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { validateToolArguments } from "../../src/tools/validate.ts";

const tools = createBuiltinTools();

describe("validateToolArguments", () => {
  test("passes valid arguments through", () => {
    expect(validateToolArguments(tools.read, { path: "a.txt", offset: 2 })).toEqual({ ok: true, args: { path: "a.txt", offset: 2 } });
  });

  test("converts numbers and booleans sent as strings", () => {
    expect(validateToolArguments(tools.read, { path: "a", offset: "5", limit: " 10 " })).toEqual({
      ok: true,
      args: { path: "a", offset: 5, limit: 10 },
    });
    expect(validateToolArguments(tools.grep, { pattern: "x", ignoreCase: "true", literal: "false" })).toEqual({
      ok: true,
      args: { pattern: "x", ignoreCase: true, literal: false },
    });
    expect(validateToolArguments(tools.write, { path: "a", content: 42 })).toEqual({ ok: true, args: { path: "a", content: "42" } });
  });

  test("does not change the arguments it was given", () => {
    const args = { path: "a", offset: "5" };
    validateToolArguments(tools.read, args);
    expect(args.offset).toBe("5");
  });

  test("lists every problem by dotted path and repeats the arguments", () => {
    const args = { edits: [{ oldText: ["a"], newText: "x" }, "nope"] };
    const outcome = validateToolArguments(tools.edit, args);
    expect(outcome).toEqual({
      ok: false,
      message:
        'Validation failed for tool "edit":\n' +
        "  - path: is required but missing\n" +
        "  - edits.0.oldText: must be a string (got array)\n" +
        "  - edits.1: must be an object (got string)\n\n" +
        `Received arguments:\n${JSON.stringify(args, null, 2)}`,
    });
  });

  test("rejects words where numbers belong", () => {
    const outcome = validateToolArguments(tools.read, { path: "a", offset: "ten" });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toContain("  - offset: must be a number (got string)");
  });

  test("reports a non-object as the root", () => {
    const outcome = validateToolArguments(tools.ls, "x");
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toStartWith('Validation failed for tool "ls":\n  - root: must be an object (got string)');
  });

  test("checks enum, const, anyOf, integer and minItems", () => {
    const tool = {
      name: "t",
      parameters: {
        type: "object",
        properties: {
          mode: { type: "string", enum: ["a", "b"] },
          kind: { const: "k" },
          count: { type: "integer" },
          list: { type: "array", items: { type: "string" }, minItems: 1 },
          either: { anyOf: [{ type: "number" }, { type: "boolean" }] },
        },
      },
    };
    expect(validateToolArguments(tool, { mode: "a", kind: "k", count: "3", list: ["x"], either: "7" })).toEqual({
      ok: true,
      args: { mode: "a", kind: "k", count: 3, list: ["x"], either: 7 },
    });
    const outcome = validateToolArguments(tool, { mode: "c", kind: "z", count: 1.5, list: [], either: "maybe" });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.message).toContain('  - mode: must be one of "a", "b"');
      expect(outcome.message).toContain('  - kind: must be "k"');
      expect(outcome.message).toContain("  - count: must be an integer (got number)");
      expect(outcome.message).toContain("  - list: must have at least 1 item(s)");
      expect(outcome.message).toContain("  - either: does not match any of the allowed shapes");
    }
  });
});
