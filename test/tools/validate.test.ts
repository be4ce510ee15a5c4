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

  describe("null for an optional property (what a strict schema lets a model send)", () => {
    const nested = {
      name: "n",
      parameters: {
        type: "object",
        required: ["items"],
        properties: {
          items: {
            type: "array",
            items: { type: "object", required: ["id"], properties: { id: { type: "string" }, note: { type: "string" } } },
          },
          pair: { type: "array", items: [{ type: "object", properties: { a: { type: "number" } } }] },
          maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
          ref: { $ref: "#/definitions/x" },
        },
      },
    };

    test("is taken as not given, at any depth", () => {
      expect(validateToolArguments(tools.read, { path: "a", offset: null, limit: null })).toEqual({ ok: true, args: { path: "a" } });
      expect(validateToolArguments(nested, { items: [{ id: "1", note: null }], pair: [{ a: null }] })).toEqual({
        ok: true,
        args: { items: [{ id: "1" }], pair: [{}] },
      });
    });

    test("stays where the property takes null, or its schema is a reference", () => {
      expect(validateToolArguments(nested, { items: [], maybe: null, ref: null })).toEqual({ ok: true, args: { items: [], maybe: null, ref: null } });
    });

    test("a required property's null is still an error, and the message shows the arguments as sent", () => {
      const args = { path: null, offset: null };
      const outcome = validateToolArguments(tools.read, args);
      expect(outcome).toEqual({
        ok: false,
        message: `Validation failed for tool "read":\n  - path: must be a string (got null)\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`,
      });
      expect(args).toEqual({ path: null, offset: null });
    });
  });
});
