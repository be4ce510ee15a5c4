/**
 * The system prompt, assembled as upstream Pi 0.87 does (named sections: intro, tools, rules,
 * docs pointers, appended text, project context, skills, cwd), in pig's own words.
 */
import type { AnyTool } from "../tools/types.ts";

export interface ContextFile {
  path: string;
  content: string;
}

/** What the prompt says of a tool. */
export type PromptTool = Pick<AnyTool, "name" | "promptSnippet" | "promptGuidelines">;

export interface SystemPromptInput {
  cwd: string;
  tools: readonly PromptTool[];
  /** Replaces the default base (SYSTEM.md or --system-prompt). */
  customPrompt?: string;
  /** APPEND_SYSTEM.md or --append-system-prompt values, already joined. */
  appendPrompt?: string;
  contextFiles?: readonly ContextFile[];
  /** The `<available_skills>` block, when skills are visible and `read` is active. */
  skillsBlock?: string;
  /** Where pig's own documentation lives (shown so the model can read it when asked about pig). */
  docsDir?: string;
  /** Rules of an extension's own, after the tools' (upstream's `promptGuidelines`). */
  promptGuidelines?: readonly string[];
  /** Sections of an extension's own, after the working directory, each in its tag (upstream's `sections`). */
  sections?: Readonly<Record<string, string>>;
}

/** A section's name is its tag: upstream's rule for the names extensions give theirs. */
const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim();
}

function guidelines(tools: readonly PromptTool[], extra: readonly string[] = []): string[] {
  const names = new Set(tools.map((t) => t.name));
  const out: string[] = [];
  // With a search tool active, its own description says when to use it (Pi ≥ 0.87 has no rule then).
  if (names.has("bash") && !names.has("grep") && !names.has("find") && !names.has("ls")) {
    out.push("Use bash for file operations such as ls, rg and find");
  }
  if (names.has("powershell") && !names.has("grep") && !names.has("find") && !names.has("ls")) {
    out.push("Use powershell for file operations such as Get-ChildItem and Select-String");
  }
  for (const tool of tools) out.push(...(tool.promptGuidelines ?? []));
  out.push(...extra.map((rule) => rule.trim()).filter(Boolean));
  out.push("Keep your answers short and to the point", "Name file paths clearly whenever you work with files");
  return [...new Set(out)];
}

/** The body of a section: wrapped in a tag of its own name, as Pi's sections are, so a later patch can name it. */
function tagged(name: string, body: string): string {
  return `<${name}>\n${body}\n</${name}>`;
}

function docsSection(docsDir: string): string {
  const doc = (name: string) => `${docsDir}/${name}`;
  return [
    "pig's own documentation (read it only when asked about pig itself: its setup, models, settings, skills, templates, sessions or keys):",
    `- Overview: ${doc("README.md")}`,
    `- Everything else: ${docsDir}`,
    `- Topics: running pig and its flags (${doc("usage.md")}), providers, keys and models.json (${doc("models.md")}), settings (${doc("settings.md")}), skills (${doc("skills.md")}), prompt templates (${doc("prompt-templates.md")}), session files (${doc("sessions.md")}), keys and keybindings.json (${doc("keybindings.md")})`,
    "- Read a document whole and follow its links to related documents before acting on it",
  ].join("\n");
}

/**
 * The prompt as named sections, in Pi's order and under Pi's names (preamble, tools, rules, docs,
 * addendum, project_context, skills, cwd), so that a session moving between pig and Pi patches
 * only the sections whose words differ. Every section but the preamble is wrapped in its tag.
 */
export function buildSystemSections(input: SystemPromptInput): Record<string, string> {
  const bodies: [string, string][] = [];
  if (input.customPrompt !== undefined) {
    bodies.push(["preamble", input.customPrompt]);
  } else {
    const listed = input.tools.filter((t) => t.promptSnippet);
    const toolLines = listed.length > 0 ? listed.map((t) => `- ${t.name}: ${oneLine(t.promptSnippet!)}`).join("\n") : "(none)";
    bodies.push(
      [
        "preamble",
        "You are an expert coding assistant working inside pig, a terminal coding agent. You help people by reading files, running commands, editing code and writing new files.",
      ],
      ["tools", `${toolLines}\n\nThe project may provide further tools of its own; use them as their descriptions say.`],
      ["rules", guidelines(input.tools, input.promptGuidelines).map((g) => `- ${g}`).join("\n")],
    );
    if (input.docsDir) bodies.push(["docs", docsSection(input.docsDir)]);
  }
  if (input.appendPrompt) bodies.push(["addendum", input.appendPrompt]);
  if (input.contextFiles && input.contextFiles.length > 0) {
    const files = input.contextFiles.map((file) => `<project_file path="${file.path}">\n${file.content}\n</project_file>`);
    bodies.push(["project_context", ["Instructions and conventions this project gives:", ...files].join("\n\n")]);
  }
  if (input.skillsBlock && input.tools.some((t) => t.name === "read")) bodies.push(["skills", input.skillsBlock.trim()]);
  bodies.push(["cwd", input.cwd.replace(/\\/g, "/")]);
  // As upstream: a section named like one of pig's replaces its text where it stands.
  for (const [name, body] of Object.entries(input.sections ?? {})) {
    if (!body || !SECTION_NAME.test(name) || name === "preamble") continue;
    const same = bodies.find(([taken]) => taken === name);
    if (same) same[1] = body;
    else bodies.push([name, body]);
  }
  return Object.fromEntries(bodies.map(([name, body]) => [name, name === "preamble" ? body : tagged(name, body)]));
}

/** The prompt as one text: the sections in order, blank-line separated (what a request sends). */
export function buildSystemPrompt(input: SystemPromptInput): string {
  return Object.values(buildSystemSections(input)).join("\n\n");
}
