/** defineBuiltinTool: one valibot schema gives a tool its argument type and the JSON Schema the model is sent. */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { defineBuiltinTool } from "../../src/tools/define.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { toolJsonSchema } from "../../src/tools/json-schema.ts";
import { makeContext, textOf } from "./helpers.ts";

const Arguments = v.object({
  path: v.pipe(v.string(), v.description("Where")),
  edits: v.pipe(v.array(v.object({ from: v.string(), to: v.optional(v.string()) })), v.description("What")),
  limit: v.optional(v.pipe(v.number(), v.description("How many"))),
  quiet: v.optional(v.boolean()),
});

const presentation = { summary: () => "", keep: "head", output: "text" } as const;

const echo = defineBuiltinTool({
  name: "echo",
  description: "Says what it was given.",
  arguments: () => Arguments,
  presentation,
  async execute(_id, args, _signal, _onUpdate, _context, options: { prefix: string }) {
    // The argument type is the schema's: these lines type-check only while it is.
    const path: string = args.path;
    const limit: number | undefined = args.limit;
    const firstTarget: string | undefined = args.edits[0]?.to;
    // @ts-expect-error an argument the schema does not declare is not on the type
    void args.undeclared;
    return { content: [{ type: "text", text: `${options.prefix}${JSON.stringify({ path, limit, firstTarget, args })}` }], details: undefined };
  },
});

describe("defineBuiltinTool", () => {
  test("the JSON Schema keeps the schema's order and descriptions, with required entries listed before the properties", () => {
    expect(JSON.stringify(echo.parameters)).toBe(
      JSON.stringify({
        type: "object",
        required: ["path", "edits"],
        properties: {
          path: { type: "string", description: "Where" },
          edits: {
            type: "array",
            items: { type: "object", required: ["from"], properties: { from: { type: "string" }, to: { type: "string" } } },
            description: "What",
          },
          limit: { type: "number", description: "How many" },
          quiet: { type: "boolean" },
        },
      }),
    );
  });

  test("an object without required entries has no required list", () => {
    expect(toolJsonSchema(v.object({ path: v.optional(v.string()) }))).toEqual({ type: "object", properties: { path: { type: "string" } } });
  });

  test("a schema with a rule the JSON Schema would not carry is refused, naming where it is", () => {
    expect(() => toolJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)) }))).toThrow("arguments.name: the valibot action min_length");
    expect(() => toolJsonSchema(v.object({ id: v.union([v.string(), v.number()]) }))).toThrow("arguments.id: a valibot union schema");
  });

  test("the tool made for a session has its name as label, the derived parameters and the session's options", async () => {
    const tool = echo.create({ prefix: "> " });
    expect(tool.label).toBe("echo");
    expect(tool.parameters).toBe(echo.parameters);
    const result = await tool.execute("c1", { path: "a", edits: [{ from: "x", to: "y" }], limit: 2 }, new AbortController().signal, () => {}, makeContext());
    expect(textOf(result)).toBe(`> ${JSON.stringify({ path: "a", limit: 2, firstTarget: "y", args: { path: "a", edits: [{ from: "x", to: "y" }], limit: 2 } })}`);
  });

  test("the tool receives its arguments parsed by the schema: keys it does not declare are left out", async () => {
    const tool = echo.create({ prefix: "" });
    const result = await tool.execute("c1", { path: "a", edits: [], extra: true }, new AbortController().signal, () => {}, makeContext());
    expect(JSON.parse(textOf(result)).args).toEqual({ path: "a", edits: [] });
  });
  test("the schema is built once, when the parameters are first read or a call is first checked", async () => {
    let builds = 0;
    const counted = defineBuiltinTool({
      name: "counted",
      description: "Counts its schema's builds.",
      arguments: () => {
        builds++;
        return v.object({ path: v.string() });
      },
      presentation,
      async execute(_id, args) {
        return { content: [{ type: "text", text: args.path }], details: undefined };
      },
    });
    const tool = counted.create(undefined);
    expect(builds).toBe(0);
    expect(tool.parameters).toEqual({ type: "object", required: ["path"], properties: { path: { type: "string" } } });
    expect(counted.parameters).toBe(tool.parameters);
    const result = await tool.execute("c1", { path: "a" }, new AbortController().signal, () => {}, makeContext());
    expect(textOf(result)).toBe("a");
    expect(builds).toBe(1);
  });

  test("every built-in tool's JSON Schema builds, with an object of properties", () => {
    const tools = Object.values(createBuiltinTools());
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.parameters.type).toBe("object");
      expect(Object.keys(tool.parameters.properties ?? {}).length).toBeGreaterThan(0);
    }
  });
});
