/**
 * Everything a run reads from the user's and the project's configuration, in one place:
 * context files, SYSTEM/APPEND_SYSTEM prompts, skills, prompt templates and theme files. Project resources
 * are only read when the project is trusted; context files load either way, as upstream. The
 * skills, templates and themes of `-e` packages (resources/packages.ts) come before all others.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { ContextFile } from "./context-files.ts";
import { loadContextFiles } from "./context-files.ts";
import { resolvePromptFiles } from "./prompt-files.ts";
import { readLocalPackage, type PackageFiles } from "./packages.ts";
import { expandTilde, resolveResourcePaths, type PackageResources } from "./resource-paths.ts";
import type { Settings } from "./settings.ts";
import { expandSkillCommand, loadSkills, skillsPromptBlock, type Skill } from "./skills.ts";
import { expandPromptTemplate, loadPromptTemplates, type PromptTemplate } from "./templates.ts";
import type { InstalledPackage } from "./settings-packages.ts";
import { temporaryPackageDir } from "./temporary-package-place.ts";

export interface ResourceFlags {
  systemPrompt?: string;
  appendSystemPrompt?: readonly string[];
  skills?: readonly string[];
  noSkills?: boolean;
  promptTemplates?: readonly string[];
  noPromptTemplates?: boolean;
  themes?: readonly string[];
  noThemes?: boolean;
  noContextFiles?: boolean;
}

export interface LoadedResources {
  contextFiles: ContextFile[];
  customPrompt?: string;
  appendPrompt?: string;
  skills: Skill[];
  templates: PromptTemplate[];
  /** Theme files in precedence order (the interactive mode reads the one it needs). */
  themes: string[];
  /** What went wrong while loading, each message naming its file. */
  diagnostics: { level: "warning" | "error"; message: string }[];
}

export interface LoadResourcesOptions {
  cwd: string;
  agentDir: string;
  trusted: boolean;
  /** Global settings and (when trusted) project settings, unmerged: their lists resolve separately. */
  userSettings: Settings;
  projectSettings: Settings;
  flags: ResourceFlags;
  /** `-e/--extension` values: the skills, prompts and themes of those that are packages come first. */
  extensionPaths?: readonly string[];
  /** Installed packages of the settings (settings-packages.ts): their resources come after the local ones. */
  installedPackages?: readonly InstalledPackage[];
  home?: string;
}

export function loadResources(options: LoadResourcesOptions): LoadedResources {
  const home = options.home ?? homedir();
  const { cwd, agentDir, trusted, flags } = options;
  const diagnostics: LoadedResources["diagnostics"] = [];

  const context = loadContextFiles({ cwd, agentDir, enabled: !flags.noContextFiles });
  for (const d of context.diagnostics) diagnostics.push({ level: d.level === "error" ? "error" : "warning", message: d.message });

  const prompts = resolvePromptFiles({
    cwd,
    agentDir,
    trusted,
    ...(flags.systemPrompt !== undefined ? { systemPrompt: flags.systemPrompt } : {}),
    ...(flags.appendSystemPrompt ? { appendSystemPrompt: flags.appendSystemPrompt } : {}),
  });
  for (const d of prompts.diagnostics) diagnostics.push({ level: d.level === "error" ? "error" : "warning", message: d.message });

  const base = { cwd, agentDir, home, trusted };
  const packages = cliPackages(options.extensionPaths ?? [], cwd, home);
  const packageDirs = (kind: "skills" | "prompts" | "themes"): PackageResources[] =>
    [
      ...packages.map(({ source, root, files }): PackageResources => ({ source, scope: "temporary", root, paths: files[kind] })),
      ...(options.installedPackages ?? []).map(({ source, scope, root, files }): PackageResources => ({ source, scope, root, paths: files[kind] })),
    ];
  const skills = loadSkills({
    ...base,
    packageDirs: packageDirs("skills"),
    projectEntries: options.projectSettings.skills,
    userEntries: options.userSettings.skills,
    cliPaths: [...(flags.skills ?? [])],
    includeDiscovered: !flags.noSkills,
  });
  const templates = loadPromptTemplates({
    ...base,
    packageDirs: packageDirs("prompts"),
    projectEntries: options.projectSettings.prompts,
    userEntries: options.userSettings.prompts,
    cliPaths: [...(flags.promptTemplates ?? [])],
    includeDiscovered: !flags.noPromptTemplates,
  });
  const themes = resolveResourcePaths("themes", {
    ...base,
    packageDirs: packageDirs("themes"),
    projectEntries: options.projectSettings.themes,
    userEntries: options.userSettings.themes,
    cliPaths: [...(flags.themes ?? [])],
    includeDiscovered: !flags.noThemes,
  });
  for (const d of [...skills.diagnostics, ...templates.diagnostics, ...themes.diagnostics]) {
    diagnostics.push({ level: d.type === "error" ? "error" : "warning", message: d.message });
  }
  return {
    contextFiles: context.files,
    ...(prompts.customPrompt !== undefined ? { customPrompt: prompts.customPrompt } : {}),
    ...(prompts.appendPrompt !== undefined ? { appendPrompt: prompts.appendPrompt } : {}),
    skills: skills.skills,
    templates: templates.templates,
    themes: themes.resources.map((r) => r.path),
    diagnostics,
  };
}

/** The `-e` values that are package directories (extensions/discovery.ts runs their extensions). */
function cliPackages(paths: readonly string[], cwd: string, home: string): { source: string; root: string; files: PackageFiles }[] {
  return paths.flatMap((source) => {
    const root = temporaryPackageDir(source, cwd) ?? resolve(cwd, expandTilde(source, home));
    const files = isDirectory(root) ? readLocalPackage(root) : undefined;
    return files ? [{ source, root, files }] : [];
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The `<available_skills>` block for the system prompt (empty when no skill is visible). */
export function skillsBlock(resources: LoadedResources): string {
  return skillsPromptBlock(resources.skills);
}

/**
 * Typed input as the model should get it: `/skill:name args` becomes the skill's text (read
 * now, not before), then `/template args` its expansion. Anything else is unchanged.
 */
export function inputExpander(resources: LoadedResources, onError: (message: string) => void): (text: string) => string {
  return (text) => {
    const skill = expandSkillCommand(text, resources.skills);
    if (skill.error) onError(skill.error);
    if (skill.text !== text) return skill.text;
    return expandPromptTemplate(text, resources.templates);
  };
}
