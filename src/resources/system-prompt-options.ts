/**
 * Upstream Pi's structured system-prompt inputs (`BuildSystemPromptOptions`, 1.x): what
 * `before_agent_start` shows extensions as `systemPromptOptions` and `getSystemPromptOptions()`
 * returns, and the prompt sections made from them once a handler has edited them. Pure: the
 * caller gathers the inputs (resources, tools) and applies a changed tool selection itself.
 */
import { type ContextFile, type PromptTool, buildSystemSections } from "./system-prompt.ts";
import { skillsPromptBlock, type Skill } from "./skills.ts";

/** A skill as the options list it (upstream's fields; pig's source details stay home). */
export type PromptSkill = Pick<Skill, "name" | "description" | "filePath" | "baseDir" | "disableModelInvocation">;

/** Upstream's normalised options: every collection present, so a handler can edit it in place. */
export interface SystemPromptOptions {
  /** Replaces pig's own opening and tool sections (SYSTEM.md, `--system-prompt`). */
  customPrompt?: string;
  /** The whole prompt, exactly (a handler's; the same as returning `systemPrompt`). */
  forceSystemPrompt?: string;
  /** The active tools, in order. */
  selectedTools: string[];
  /** Selected tools whose declarations requests leave out (none in pig). */
  hiddenTools: string[];
  /** Each tool's one line in the tools section, by name (every tool pig has). */
  toolSnippets: Record<string, string>;
  /** Each tool's rules, by name (every tool pig has that gives some). */
  toolGuidelines: Record<string, string[]>;
  /** Rules of the extensions' own, after the tools'. */
  promptGuidelines: string[];
  /** APPEND_SYSTEM.md and `--append-system-prompt`. */
  appendSystemPrompt: string;
  /** Sections of the extensions' own, by tag name. */
  sections: Record<string, string>;
  cwd: string;
  contextFiles: ContextFile[];
  skills: PromptSkill[];
}

/** What the options are made of. */
export interface PromptSources {
  cwd: string;
  /** Every tool pig has (their snippets and rules are offered for all of them). */
  tools: readonly PromptTool[];
  /** The active tools' names, in order. */
  selected: readonly string[];
  customPrompt?: string;
  appendPrompt?: string;
  contextFiles?: readonly ContextFile[];
  skills?: readonly PromptSkill[];
}

export function promptOptionsOf(sources: PromptSources): SystemPromptOptions {
  const toolSnippets: Record<string, string> = {};
  const toolGuidelines: Record<string, string[]> = {};
  for (const tool of sources.tools) {
    if (tool.promptSnippet) toolSnippets[tool.name] = tool.promptSnippet;
    if (tool.promptGuidelines?.length) toolGuidelines[tool.name] = [...tool.promptGuidelines];
  }
  return {
    ...(sources.customPrompt !== undefined ? { customPrompt: sources.customPrompt } : {}),
    selectedTools: [...sources.selected],
    hiddenTools: [],
    toolSnippets,
    toolGuidelines,
    promptGuidelines: [],
    appendSystemPrompt: sources.appendPrompt ?? "",
    sections: {},
    cwd: sources.cwd,
    contextFiles: (sources.contextFiles ?? []).map((file) => ({ path: file.path, content: file.content })),
    skills: (sources.skills ?? []).map(({ name, description, filePath, baseDir, disableModelInvocation }) => ({ name, description, filePath, baseDir, disableModelInvocation })),
  };
}

/**
 * The prompt's sections as `options` say (pig's words, upstream's structure): the selected tools
 * with the snippets and rules the options give them, the extensions' rules and sections.
 */
export function sectionsFromOptions(options: SystemPromptOptions, docsDir?: string): Record<string, string> {
  const hidden = new Set(options.hiddenTools);
  const tools: PromptTool[] = options.selectedTools
    .filter((name) => !hidden.has(name))
    .map((name) => {
      const snippet = options.toolSnippets[name];
      const rules = options.toolGuidelines[name];
      return { name, ...(snippet ? { promptSnippet: snippet } : {}), ...(rules ? { promptGuidelines: rules } : {}) };
    });
  const skills = skillsPromptBlock(options.skills);
  return buildSystemSections({
    cwd: options.cwd,
    tools,
    ...(options.customPrompt !== undefined ? { customPrompt: options.customPrompt } : {}),
    ...(options.appendSystemPrompt ? { appendPrompt: options.appendSystemPrompt } : {}),
    contextFiles: options.contextFiles,
    ...(skills ? { skillsBlock: skills } : {}),
    ...(docsDir ? { docsDir } : {}),
    promptGuidelines: options.promptGuidelines,
    sections: options.sections,
  });
}
