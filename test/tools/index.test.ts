import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_TOOL_NAMES, createBuiltinTools, DEFAULT_ACTIVE_TOOLS, defaultActiveTools, selectTools } from "../../src/tools/index.ts";
import { FIXTURES_087 } from "../helpers/tmp.ts";

/** The parameter schemas Pi 0.87.1 declared for its seven built-in tools (fixture 02's system message). */
function fixtureParameters(): Record<string, unknown> {
  const entries = readFileSync(join(FIXTURES_087, "02-builtin-tools.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
  const system = entries.find((e) => e.type === "message" && e.message.role === "system").message as { toolsAdded: { name: string; parameters: unknown }[] };
  return Object.fromEntries(system.toolsAdded.map((tool) => [tool.name, tool.parameters]));
}

describe("built-in tool definitions", () => {
  test("send the same parameter schemas as Pi 0.87.1, key order included", () => {
    const tools = createBuiltinTools();
    const expected = fixtureParameters();
    // powershell is pig's own (Pi has no Windows shell tool); the other seven are Pi's.
    const pis = ALL_TOOL_NAMES.filter((name) => name !== "powershell");
    expect(Object.keys(expected).sort()).toEqual([...pis].sort());
    for (const name of pis) {
      expect(JSON.stringify(tools[name].parameters)).toBe(JSON.stringify(expected[name]));
    }
  });

  test("label every tool with its name and give the system prompt its snippets", () => {
    const tools = createBuiltinTools();
    for (const name of ALL_TOOL_NAMES) expect(tools[name].label).toBe(name);
    expect(tools.read.promptSnippet).toBe("Read file contents");
    expect(tools.bash.promptSnippet).toBe("Execute bash commands (ls, grep, find, etc.)");
    expect(tools.edit.promptSnippet).toBe(
      "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    );
    expect(tools.write.promptSnippet).toBe("Create or overwrite files");
    expect(tools.grep.promptSnippet).toBe("Search file contents for patterns (respects .gitignore)");
    expect(tools.find.promptSnippet).toBe("Find files by glob pattern (respects .gitignore)");
    expect(tools.ls.promptSnippet).toBe("List directory contents");
    expect(tools.read.promptGuidelines).toEqual(["Use read to examine files instead of cat or sed."]);
    expect(tools.write.promptGuidelines).toEqual(["Use write only for new files or complete rewrites."]);
    expect(tools.edit.promptGuidelines).toHaveLength(4);
  });
});

describe("selectTools", () => {
  const all = createBuiltinTools();
  const names = (s: { tools: { name: string }[] }) => s.tools.map((t) => t.name);

  test("activates read, bash, edit, write by default", () => {
    expect(names(selectTools(all, { platform: "linux" }))).toEqual([...DEFAULT_ACTIVE_TOOLS]);
    expect(names(selectTools(all, { platform: "darwin" }))).toEqual(["read", "bash", "edit", "write"]);
  });

  test("on Windows powershell takes the place of bash; elsewhere it is there to turn on", () => {
    expect(defaultActiveTools("win32")).toEqual(["read", "powershell", "edit", "write"]);
    expect(names(selectTools(all, { platform: "win32" }))).toEqual(["read", "powershell", "edit", "write"]);
    expect(names(selectTools(all, { tools: ["read", "powershell"], platform: "linux" }))).toEqual(["read", "powershell"]);
  });

  test("keeps an allowlist in the order given, without duplicates", () => {
    const s = selectTools(all, { tools: ["ls", "read", "ls", "grep"] });
    expect(names(s)).toEqual(["ls", "read", "grep"]);
    expect(s.warnings).toEqual([]);
  });

  test("warns about unknown names instead of ignoring them silently", () => {
    const s = selectTools(all, { tools: ["read", "grpe"] });
    expect(names(s)).toEqual(["read"]);
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toContain('"grpe"');
    expect(s.warnings[0]).toContain("in --tools");
    const fromSetting = selectTools(all, { tools: ["grpe"], toolsSource: "the defaultTools setting" });
    expect(fromSetting.warnings[0]).toContain('"grpe" in the defaultTools setting');
  });

  test("turns everything off with noTools and drops excluded names", () => {
    expect(selectTools(all, { noTools: true, tools: ["read"] }).tools).toEqual([]);
    expect(names(selectTools(all, { exclude: ["bash"] }))).toEqual(["read", "edit", "write"]);
  });

  test("keeps tools that are not built-ins active by default", () => {
    const extra = { ...all, deploy: { ...all.ls, name: "deploy" } };
    expect(names(selectTools(extra))).toEqual(["read", "bash", "edit", "write", "deploy"]);
  });
});
