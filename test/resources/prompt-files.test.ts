/** SYSTEM.md / APPEND_SYSTEM.md and their flags. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePromptFiles } from "../../src/resources/prompt-files.ts";
import { tempDir } from "../helpers/tmp.ts";

function setup(files: Record<string, string> = {}) {
  const root = tempDir("pig-prompts-");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".pig"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return { root, agentDir, cwd };
}

const ALL = {
  "agent/SYSTEM.md": "global system",
  "agent/APPEND_SYSTEM.md": "global append",
  "project/.pig/SYSTEM.md": "project system",
  "project/.pig/APPEND_SYSTEM.md": "project append",
};

describe("prompt files", () => {
  test("nothing anywhere: neither a custom prompt nor an append", () => {
    const { agentDir, cwd } = setup();
    expect(resolvePromptFiles({ agentDir, cwd, trusted: true })).toEqual({ diagnostics: [] });
  });

  test("a trusted project's files come before the agent dir's", () => {
    const { agentDir, cwd } = setup(ALL);
    expect(resolvePromptFiles({ agentDir, cwd, trusted: true })).toEqual({
      customPrompt: "project system",
      appendPrompt: "project append",
      diagnostics: [],
    });
  });

  test("an untrusted project's files are ignored; the agent dir's still apply", () => {
    const { agentDir, cwd } = setup(ALL);
    expect(resolvePromptFiles({ agentDir, cwd, trusted: false })).toEqual({
      customPrompt: "global system",
      appendPrompt: "global append",
      diagnostics: [],
    });
  });

  test("each file is looked up on its own", () => {
    const { agentDir, cwd } = setup({ "agent/SYSTEM.md": "global system", "project/.pig/APPEND_SYSTEM.md": "project append" });
    expect(resolvePromptFiles({ agentDir, cwd, trusted: true })).toEqual({
      customPrompt: "global system",
      appendPrompt: "project append",
      diagnostics: [],
    });
  });

  test("flags replace the files; every append value is used, joined by a blank line", () => {
    const { agentDir, cwd } = setup(ALL);
    expect(
      resolvePromptFiles({ agentDir, cwd, trusted: true, systemPrompt: "be brief", appendSystemPrompt: ["one", "", "two"] }),
    ).toEqual({ customPrompt: "be brief", appendPrompt: "one\n\ntwo", diagnostics: [] });
  });

  test("a flag naming an existing file (relative to cwd) stands for its content, even untrusted", () => {
    const { root, agentDir, cwd } = setup({ "project/base.md": "from file", "extra.md": "extra from file" });
    const result = resolvePromptFiles({
      agentDir,
      cwd,
      trusted: false,
      systemPrompt: "base.md",
      appendSystemPrompt: [join(root, "extra.md"), "literal"],
    });
    expect(result).toEqual({ customPrompt: "from file", appendPrompt: "extra from file\n\nliteral", diagnostics: [] });
  });

  test("a flag naming something unreadable is used literally, with a warning", () => {
    const { agentDir, cwd } = setup();
    mkdirSync(join(cwd, "adir"));
    const result = resolvePromptFiles({ agentDir, cwd, trusted: true, systemPrompt: "adir" });
    expect(result.customPrompt).toBe("adir");
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toContain(`Could not read system prompt file ${join(cwd, "adir")}`);
  });

  test("an unreadable SYSTEM.md is skipped with a warning and the next one is used", () => {
    const { agentDir, cwd } = setup({ "agent/SYSTEM.md": "global system" });
    mkdirSync(join(cwd, ".pig", "SYSTEM.md"));
    const result = resolvePromptFiles({ agentDir, cwd, trusted: true });
    expect(result.customPrompt).toBe("global system");
    expect(result.diagnostics[0]).toMatchObject({ level: "warning", path: join(cwd, ".pig", "SYSTEM.md") });
  });

  test("an empty SYSTEM.md keeps the default prompt, and an empty flag suppresses the files", () => {
    const { agentDir, cwd } = setup({ "agent/SYSTEM.md": "", "agent/APPEND_SYSTEM.md": "global append" });
    expect(resolvePromptFiles({ agentDir, cwd, trusted: true })).toEqual({ appendPrompt: "global append", diagnostics: [] });
    writeFileSync(join(agentDir, "SYSTEM.md"), "global system");
    expect(resolvePromptFiles({ agentDir, cwd, trusted: true, systemPrompt: "", appendSystemPrompt: [""] })).toEqual({
      diagnostics: [],
    });
  });
});
