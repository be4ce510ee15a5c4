/**
 * How an MCP tool is declared (tool-shape.ts) and the `mcp_servers` section (servers-section.ts),
 * as upstream Pi 1.6.0 has them: exposures mapped (codemode declared in pig), the namespace,
 * boolean annotation hints only, the output schema with the tool's own relocated under
 * `structuredContent`, and the section bounded per server and in all.
 */
import { describe, expect, test } from "bun:test";
import { MAX_SECTION_CHARS, renderServersSection } from "../../src/mcp/servers-section.ts";
import { relocateSchema, resultSchema, serverNamespace, toolAnnotations, toolExposureOf } from "../../src/mcp/tool-shape.ts";

describe("tool shape", () => {
  test("exposures: codemode is declared (pig has no codemode tool); the others keep their meaning", () => {
    expect(["codemode", "deferred", "direct", "hidden"].map((e) => toolExposureOf(e as "direct"))).toEqual(["direct", "deferred", "direct", "hidden"]);
  });

  test("the namespace is mcp__<server> with the server's name as an alias, description and instructions when given", () => {
    expect(serverNamespace("my-docs", "  Docs  ", "Use search first.")).toEqual({ name: "mcp__my_docs", aliases: ["my-docs"], description: "Docs", instructions: "Use search first." });
    expect(serverNamespace("a", " ", undefined)).toEqual({ name: "mcp__a", aliases: ["a"] });
  });

  test("annotations keep the boolean hints only", () => {
    const tool = { name: "t", inputSchema: {}, annotations: { title: "T", readOnlyHint: true, destructiveHint: "yes" as unknown as boolean } };
    expect(toolAnnotations(tool)).toEqual({ readOnlyHint: true });
    expect(toolAnnotations({ name: "t", inputSchema: {}, annotations: { title: "T" } })).toBeUndefined();
  });

  test("the output schema is the call result; the tool's schema moves under structuredContent with its references", () => {
    const own = { type: "object", properties: { item: { $ref: "#/$defs/Item" }, self: { $ref: "#" } }, $defs: { Item: { type: "string", default: { $ref: "#/not-a-ref" } } } };
    const schema = resultSchema(own) as { properties: { structuredContent: unknown }; required: string[] };
    expect(schema.required).toEqual(["content"]);
    expect(schema.properties.structuredContent).toEqual({
      type: "object",
      properties: { item: { $ref: "#/properties/structuredContent/$defs/Item" }, self: { $ref: "#/properties/structuredContent" } },
      $defs: { Item: { type: "string", default: { $ref: "#/not-a-ref" } } },
    });
    expect((resultSchema(undefined) as { properties: { structuredContent: unknown } }).properties.structuredContent).toEqual({});
    expect(relocateSchema([{ $ref: "#/a" }], "#/x")).toEqual([{ $ref: "#/x/a" }]);
  });
});

describe("mcp_servers section", () => {
  test("none without servers; sorted, with the description or else the first line of the instructions", () => {
    expect(renderServersSection([])).toBeUndefined();
    const text = renderServersSection([{ name: "zeta", instructions: "Searches tickets.\nMore." }, { name: "alpha-docs", description: "Team docs" }, { name: "bare" }])!;
    expect(text.split("\n").slice(1)).toEqual(["- mcp__alpha_docs: Team docs", "- mcp__bare", "- mcp__zeta: Searches tickets."]);
    expect(text.split("\n")[0]).toContain("tool_search");
  });

  test("descriptions are cut to 250 characters, and the section to its bound, the servers left out counted", () => {
    const long = renderServersSection([{ name: "a", description: "x".repeat(400) }])!;
    expect(long.split("\n")[1]!.length).toBe("- mcp__a: ".length + 250);
    const many = Array.from({ length: 400 }, (_, i) => ({ name: `server_${String(i).padStart(3, "0")}`, description: "d" }));
    const text = renderServersSection(many)!;
    expect(text.length).toBeLessThanOrEqual(MAX_SECTION_CHARS);
    expect(text.split("\n").at(-1)).toMatch(/^- … and \d+ more servers; `tool_search` finds their tools too$/);
  });
});
