/**
 * The system prompt against the one upstream Pi 0.87.1 declared for the same setup (fixture 02:
 * all seven tools, no project files): the same named sections in the same order, the same tools
 * listed, and the rendering a request sends.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSystemPrompt, buildSystemSections } from "../../src/resources/system-prompt.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { FIXTURES_087 } from "../helpers/tmp.ts";

const piSections: Record<string, string> = readFileSync(join(FIXTURES_087, "02-builtin-tools.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .find((entry) => entry.type === "message" && entry.message.role === "system").message.sections;
const all = createBuiltinTools();
const order = ["read", "write", "edit", "bash", "grep", "find", "ls"] as const;
const tools = order.map((name) => all[name]);
const cwd = "/home/dev/fx087/02-builtin-tools/work";

describe("default prompt", () => {
  const ours = buildSystemSections({ cwd, tools, docsDir: "/root/.pig/agent/docs/0.1.0" });

  test("has Pi's sections in Pi's order, each but the preamble wrapped in its own tag", () => {
    expect(Object.keys(ours)).toEqual(Object.keys(piSections));
    for (const [name, text] of Object.entries(ours)) {
      if (name === "preamble") expect(text.startsWith("<")).toBe(false);
      else expect(text).toMatch(new RegExp(`^<${name}>\\n[\\s\\S]+\\n</${name}>$`));
    }
  });

  test("lists the same tools, in the active order", () => {
    const names = (section: string) => section.split("\n").flatMap((l) => /^- (\w+): /.exec(l)?.[1] ?? []);
    expect(names(ours.tools!)).toEqual(names(piSections.tools!));
    expect(names(ours.tools!)).toEqual([...order]);
  });

  test("the cwd section is the working directory, as Pi's is", () => {
    expect(ours.cwd).toBe(piSections.cwd!);
  });

  test("a request sends the sections joined by blank lines", () => {
    expect(buildSystemPrompt({ cwd, tools, docsDir: "/d" })).toBe(Object.values(buildSystemSections({ cwd, tools, docsDir: "/d" })).join("\n\n"));
  });
});

describe("other setups", () => {
  test("bash without search tools points to bash for exploring; with them there is no such rule; no tools lists none", () => {
    expect(buildSystemSections({ cwd: "/w", tools: [all.bash] }).rules).toContain("Use bash for file operations");
    expect(buildSystemSections({ cwd: "/w", tools }).rules).not.toContain("Use bash for file operations");
    const none = buildSystemSections({ cwd: "/w", tools: [] });
    expect(none.tools!.split("\n")[1]).toBe("(none)");
    expect(none.rules!.split("\n")).toHaveLength(4);
  });

  test("a custom prompt replaces the base; append, context files and skills follow in order", () => {
    const sections = buildSystemSections({
      cwd: "/w",
      tools: [all.read],
      customPrompt: "You are a reviewer.",
      appendPrompt: "Always answer in French.",
      contextFiles: [{ path: "/w/AGENTS.md", content: "Use tabs." }],
      skillsBlock: "\n\nSKILLS",
    });
    expect(sections).toEqual({
      preamble: "You are a reviewer.",
      addendum: "<addendum>\nAlways answer in French.\n</addendum>",
      project_context:
        '<project_context>\nInstructions and conventions this project gives:\n\n<project_file path="/w/AGENTS.md">\nUse tabs.\n</project_file>\n</project_context>',
      skills: "<skills>\nSKILLS\n</skills>",
      cwd: "<cwd>\n/w\n</cwd>",
    });
  });

  test("the skills section needs the read tool", () => {
    expect(buildSystemSections({ cwd: "/w", tools: [all.bash], skillsBlock: "\n\nSKILLS" }).skills).toBeUndefined();
  });
});
