import { describe, expect, test } from "bun:test";
import * as tools from "../../../src/extensions/compat/tools.ts";

// What Pi 1.6.0's factories hand an extension: a `*ToolDefinition` has the tool's prompt lines; a
// bare `create*Tool` has none, except bash's.
const NAMES = ["Read", "Bash", "Edit", "Write", "Grep", "Find", "Ls"] as const;
const factory = (name: string) => (tools as unknown as Record<string, (cwd?: string) => tools.CompatTool>)[name]!;

describe("the compat tool factories", () => {
  test("bare read, edit, write, grep, find and ls tools have no prompt snippet or guidelines", () => {
    for (const name of ["Read", "Edit", "Write", "Grep", "Find", "Ls"]) {
      const tool = factory(`create${name}Tool`)("/tmp");
      expect(tool.name).toBe(name.toLowerCase());
      expect(tool.description.length).toBeGreaterThan(0);
      expect("promptSnippet" in tool).toBe(false);
      expect("promptGuidelines" in tool).toBe(false);
    }
  });

  test("the bare bash tool keeps its prompt snippet", () => {
    const tool = tools.createBashTool("/tmp");
    expect(tool.promptSnippet).toBe("Execute bash commands (ls, grep, find, etc.)");
  });

  test("every *ToolDefinition keeps its prompt snippet; read, edit and write their guidelines too", () => {
    for (const name of NAMES) {
      const tool = factory(`create${name}ToolDefinition`)("/tmp");
      expect(tool.name).toBe(name.toLowerCase());
      expect(typeof tool.promptSnippet).toBe("string");
      if (name === "Read" || name === "Edit" || name === "Write") expect(tool.promptGuidelines?.length).toBeGreaterThan(0);
      else expect(tool.promptGuidelines).toBeUndefined();
    }
  });

  test("createCodingTools and createReadOnlyTools give the bare tools", () => {
    const coding = tools.createCodingTools("/tmp");
    expect(coding.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(coding.filter((t) => t.promptSnippet !== undefined).map((t) => t.name)).toEqual(["bash"]);
    expect(tools.createReadOnlyTools("/tmp").some((t) => t.promptSnippet !== undefined)).toBe(false);
  });

  test("a tool's guidelines are its own copy", () => {
    const a = tools.createReadToolDefinition("/tmp");
    a.promptGuidelines!.push("changed");
    expect(tools.createReadToolDefinition("/tmp").promptGuidelines).not.toContain("changed");
  });
});
