/**
 * Upstream 1.x's `systemPromptOptions`: made from pig's inputs, and the sections made back from
 * them — the same prompt when nothing was edited, the edits where upstream puts them otherwise.
 */
import { describe, expect, test } from "bun:test";
import { promptOptionsOf, sectionsFromOptions } from "../../src/resources/system-prompt-options.ts";
import { skillsPromptBlock } from "../../src/resources/skills.ts";
import { buildSystemSections } from "../../src/resources/system-prompt.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";

const all = createBuiltinTools();
const active = [all.read, all.bash, all.edit, all.write];
const tools = Object.values(all);
const skill = { name: "deploy", description: "Ship it", filePath: "/s/deploy/SKILL.md", baseDir: "/s/deploy", disableModelInvocation: false };
const sources = {
  cwd: "/w",
  tools,
  selected: active.map((t) => t.name),
  appendPrompt: "Appended.",
  contextFiles: [{ path: "/w/AGENTS.md", content: "Be kind." }],
  skills: [skill],
};

describe("promptOptionsOf", () => {
  test("upstream's members: the active tools selected, every tool's snippet and rules offered, the collections empty", () => {
    const options = promptOptionsOf(sources);
    expect(options.selectedTools).toEqual(["read", "bash", "edit", "write"]);
    expect(Object.keys(options.toolSnippets).sort()).toEqual(tools.filter((t) => t.promptSnippet).map((t) => t.name).sort());
    expect(options).toMatchObject({ hiddenTools: [], promptGuidelines: [], sections: {}, appendSystemPrompt: "Appended.", cwd: "/w", skills: [skill] });
    expect(options.contextFiles).toEqual([{ path: "/w/AGENTS.md", content: "Be kind." }]);
    expect(options).not.toHaveProperty("customPrompt");
  });
});

describe("sectionsFromOptions", () => {
  const docsDir = "/docs";

  test("options nobody edited make the prompt pig makes from the same inputs", () => {
    const direct = buildSystemSections({ cwd: "/w", tools: active, appendPrompt: "Appended.", contextFiles: sources.contextFiles, skillsBlock: skillsPromptBlock([skill]), docsDir });
    expect(sectionsFromOptions(promptOptionsOf(sources), docsDir)).toEqual(direct);
    const custom = promptOptionsOf({ ...sources, customPrompt: "Mine." });
    expect(sectionsFromOptions(custom, docsDir).preamble).toBe("Mine.");
  });

  test("an extension's rules follow the tools' and precede pig's closing ones; its sections follow cwd, in their tags", () => {
    const options = promptOptionsOf(sources);
    options.promptGuidelines.push("Prefer tabs");
    options.sections.house = "Answer in haiku.";
    const sections = sectionsFromOptions(options, docsDir);
    // The section's lines: its tags around the rules, pig's two closing rules last.
    const rules = sections.rules!.split("\n");
    expect(rules.indexOf("- Prefer tabs")).toBe(rules.length - 4);
    expect(Object.keys(sections).slice(-2)).toEqual(["cwd", "house"]);
    expect(sections.house).toBe("<house>\nAnswer in haiku.\n</house>");
  });

  test("a section named like pig's replaces it where it stands; an invalid name or the preamble is left out", () => {
    const options = promptOptionsOf(sources);
    options.sections.cwd = "/elsewhere";
    options.sections["Bad Name"] = "x";
    options.sections.preamble = "y";
    const sections = sectionsFromOptions(options, docsDir);
    expect(sections.cwd).toBe("<cwd>\n/elsewhere\n</cwd>");
    expect(Object.keys(sections).at(-1)).toBe("cwd");
    expect(sections.preamble).not.toBe("y");
  });

  test("the tools selected, their snippets and rules, the skills and the context files are the options'", () => {
    const options = promptOptionsOf(sources);
    options.selectedTools = ["bash"];
    options.toolSnippets.bash = "Run things";
    options.toolGuidelines.bash = ["Quote paths"];
    options.skills = [];
    options.contextFiles = [];
    const sections = sectionsFromOptions(options, docsDir);
    expect(sections.tools).toStartWith("<tools>\n- bash: Run things\n\n");
    expect(sections.rules).toContain("- Quote paths");
    expect(sections.skills).toBeUndefined();
    expect(sections.project_context).toBeUndefined();
  });
});
