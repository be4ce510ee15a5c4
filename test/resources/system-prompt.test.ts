/**
 * The system prompt against the one upstream Pi sent for the same setup (fixture 02: all seven
 * tools, no project files): every part Pi emits has its counterpart in ours, in the same order.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSystemPrompt } from "../../src/resources/system-prompt.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { FIXTURES } from "../helpers/tmp.ts";

const piPrompt: string = JSON.parse(readFileSync(join(FIXTURES, "wire", "02-builtin-tools.requests.jsonl"), "utf8").split("\n")[0]!).body
  .messages[0].content;
const all = createBuiltinTools();
const order = ["read", "write", "edit", "bash", "grep", "find", "ls"] as const;
const tools = order.map((name) => all[name]);
const now = new Date(2026, 10, 30, 12);

/** Splits a prompt into its parts: paragraphs, then the date and cwd lines. */
function parts(prompt: string): string[] {
  const [body, ...tail] = prompt.split("\nCurrent date: ");
  return [...body!.split("\n\n"), `Current date: ${tail.join("")}`];
}

function kind(part: string): string {
  if (part.startsWith("Available tools:")) return "tools";
  if (part.startsWith("Guidelines:")) return "guidelines";
  if (part.startsWith("Current date:")) return "date+cwd";
  if (part.includes("documentation")) return "docs";
  if (part.startsWith("# Project Context")) return "context";
  if (part.includes("custom tools") || part.includes("further tools")) return "more-tools";
  return "intro";
}

describe("default prompt", () => {
  const ours = buildSystemPrompt({ cwd: "/home/dev/fx/02-builtin-tools/work", tools, docsDir: "/root/.pig/agent/docs/0.1.0", now });

  test("has Pi's parts in Pi's order", () => {
    expect(parts(ours).map(kind)).toEqual(parts(piPrompt).map(kind));
  });

  test("lists the same tools with the same one-line blurbs, in the active order", () => {
    const lines = (p: string) => p.split("\n").filter((l) => /^- \w+: /.test(l) && !l.includes("/"));
    const toolLines = (p: string) => parts(p).find((x) => x.startsWith("Available tools:"))!.split("\n").slice(1);
    expect(toolLines(ours)).toEqual(toolLines(piPrompt));
    expect(lines(ours).length).toBeGreaterThan(0);
  });

  test("has a guideline for each one upstream gives, tool guidelines in tool order", () => {
    const bullets = (p: string) => parts(p).find((x) => x.startsWith("Guidelines:"))!.split("\n").slice(1);
    expect(bullets(ours)).toHaveLength(bullets(piPrompt).length);
    expect(bullets(ours)[0]).toContain("grep");
  });

  test("ends with the date and the working directory", () => {
    expect(ours.endsWith("\nCurrent date: 2026-11-30\nCurrent working directory: /home/dev/fx/02-builtin-tools/work")).toBe(true);
  });
});

describe("other setups", () => {
  test("bash without search tools points to bash for exploring; no tools lists none", () => {
    const bashOnly = buildSystemPrompt({ cwd: "/w", tools: [all.bash], now });
    expect(bashOnly).toContain("Use bash for file operations");
    const none = buildSystemPrompt({ cwd: "/w", tools: [], now });
    expect(none).toContain("Available tools:\n(none)");
    expect(parts(none).find((p) => p.startsWith("Guidelines:"))!.split("\n")).toHaveLength(3);
  });

  test("a custom prompt replaces the base; append, context files and skills follow in order", () => {
    const prompt = buildSystemPrompt({
      cwd: "/w",
      tools: [all.read],
      customPrompt: "You are a reviewer.",
      appendPrompt: "Always answer in French.",
      contextFiles: [{ path: "/w/AGENTS.md", content: "Use tabs." }],
      skillsBlock: "\n\nSKILLS",
      now,
    });
    expect(prompt).toBe(
      "You are a reviewer.\n\nAlways answer in French.\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n## /w/AGENTS.md\n\nUse tabs.\n\n\n\nSKILLS\nCurrent date: 2026-11-30\nCurrent working directory: /w",
    );
  });

  test("the skills block needs the read tool", () => {
    const prompt = buildSystemPrompt({ cwd: "/w", tools: [all.bash], skillsBlock: "\n\nSKILLS", now });
    expect(prompt).not.toContain("SKILLS");
  });
});
