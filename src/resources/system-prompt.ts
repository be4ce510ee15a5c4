/**
 * The system prompt, assembled in upstream Pi's order (intro, tools, guidelines, docs pointers,
 * appended text, project context, skills, date and cwd), in pig's own words.
 */
import type { AnyTool } from "../tools/types.ts";
import { localDate } from "../util/libc.ts";

export interface ContextFile {
  path: string;
  content: string;
}

export interface SystemPromptInput {
  cwd: string;
  tools: readonly AnyTool[];
  /** Replaces the default base (SYSTEM.md or --system-prompt). */
  customPrompt?: string;
  /** APPEND_SYSTEM.md or --append-system-prompt values, already joined. */
  appendPrompt?: string;
  contextFiles?: readonly ContextFile[];
  /** The `<available_skills>` block, when skills are visible and `read` is active. */
  skillsBlock?: string;
  /** Where pig's own documentation lives (shown so the model can read it when asked about pig). */
  docsDir?: string;
  now?: Date;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim();
}

function guidelines(tools: readonly AnyTool[]): string[] {
  const names = new Set(tools.map((t) => t.name));
  const out: string[] = [];
  if (names.has("bash")) {
    out.push(
      names.has("grep") || names.has("find") || names.has("ls")
        ? "Prefer the grep, find and ls tools over bash for exploring files: they are faster and respect .gitignore"
        : "Use bash for file operations such as ls, rg and find",
    );
  }
  for (const tool of tools) out.push(...(tool.promptGuidelines ?? []));
  out.push("Keep your answers short and to the point", "Name file paths clearly whenever you work with files");
  return [...new Set(out)];
}

function defaultBase(input: SystemPromptInput): string {
  const listed = input.tools.filter((t) => t.promptSnippet);
  const toolLines = listed.length > 0 ? listed.map((t) => `- ${t.name}: ${oneLine(t.promptSnippet!)}`).join("\n") : "(none)";
  const parts = [
    "You are an expert coding assistant working inside pig, a terminal coding agent. You help people by reading files, running commands, editing code and writing new files.",
    `Available tools:\n${toolLines}`,
    "The project may provide further tools of its own; use them as their descriptions say.",
    `Guidelines:\n${guidelines(input.tools).map((g) => `- ${g}`).join("\n")}`,
  ];
  if (input.docsDir) {
    const doc = (name: string) => `${input.docsDir}/${name}`;
    parts.push(
      [
        "pig's own documentation (read it only when asked about pig itself: its setup, models, settings, skills, templates, sessions or keys):",
        `- Overview: ${doc("README.md")}`,
        `- Everything else: ${input.docsDir}`,
        `- Topics: running pig and its flags (${doc("usage.md")}), providers, keys and models.json (${doc("models.md")}), settings (${doc("settings.md")}), skills (${doc("skills.md")}), prompt templates (${doc("prompt-templates.md")}), session files (${doc("sessions.md")}), keys and keybindings.json (${doc("keybindings.md")})`,
        "- Read a document whole and follow its links to related documents before acting on it",
      ].join("\n"),
    );
  }
  return parts.join("\n\n");
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  let prompt = input.customPrompt ?? defaultBase(input);
  if (input.appendPrompt) prompt += `\n\n${input.appendPrompt}`;
  if (input.contextFiles && input.contextFiles.length > 0) {
    prompt += "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n";
    for (const file of input.contextFiles) prompt += `## ${file.path}\n\n${file.content}\n\n`;
  }
  if (input.skillsBlock && input.tools.some((t) => t.name === "read")) prompt += input.skillsBlock;
  prompt += `\nCurrent date: ${localDate(input.now ?? new Date())}`;
  prompt += `\nCurrent working directory: ${input.cwd.replace(/\\/g, "/")}`;
  return prompt;
}
