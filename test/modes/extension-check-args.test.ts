/** The pure parts of `pig extension check`: arguments made from a tool's schema, and its command line. */
import { describe, expect, test } from "bun:test";
import { parseCheckArgs } from "../../src/modes/extension-check/main.ts";
import { argsFor } from "../../src/modes/extension-check/schema-args.ts";

describe("argsFor", () => {
  test("required properties get the simplest value of their type; optional ones are left out", () => {
    const schema = {
      type: "object",
      required: ["path", "count", "flag", "paths", "mode", "inner", "fixed", "n"],
      properties: {
        path: { type: "string" },
        count: { type: "integer", minimum: 3 },
        flag: { type: "boolean" },
        paths: { type: "array", items: { type: "string" } },
        mode: { type: "string", enum: ["fast", "slow"] },
        inner: { type: "object", required: ["x"], properties: { x: { type: "number" } } },
        fixed: { const: 7 },
        n: { anyOf: [{ type: "null" }, { type: "number", default: 2 }] },
        optional: { type: "string" },
      },
    };
    expect(argsFor(schema)).toEqual({ path: "pig-check", count: 3, flag: true, paths: ["pig-check"], mode: "fast", inner: { x: 1 }, fixed: 7, n: 2 });
  });

  test("array bounds are kept; a schema that is no object gives no arguments", () => {
    expect(argsFor({ type: "object", required: ["a", "b"], properties: { a: { type: "array", minItems: 2, items: { type: "number" } }, b: { type: "array", maxItems: 0 } } })).toEqual({ a: [1, 1], b: [] });
    expect(argsFor(undefined)).toEqual({});
    expect(argsFor({ type: "string" })).toEqual({});
  });
});

describe("parseCheckArgs", () => {
  test("a path, a command after --, --json and --limit", () => {
    expect(parseCheckArgs(["ext.ts"])).toEqual({ target: { kind: "path", path: "ext.ts" }, json: false, limitMs: 15_000 });
    expect(parseCheckArgs(["--json", "--limit", "900", "--", "python3", "x.py", "--flag"])).toEqual({ target: { kind: "command", command: ["python3", "x.py", "--flag"] }, json: true, limitMs: 900 });
    expect(parseCheckArgs(["-h"])).toEqual({ help: true });
  });

  test("each mistake is named", () => {
    expect(() => parseCheckArgs([])).toThrow("name the extension");
    expect(() => parseCheckArgs(["a", "b"])).toThrow("one extension at a time (got a and b)");
    expect(() => parseCheckArgs(["--limit", "soon", "a"])).toThrow('--limit: expected a number of milliseconds, got "soon"');
    expect(() => parseCheckArgs(["--x"])).toThrow("unknown option --x");
    expect(() => parseCheckArgs(["a", "--", "b"])).toThrow("not both (a)");
    expect(() => parseCheckArgs(["--"])).toThrow("name the command");
  });
});
