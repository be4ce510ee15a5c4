/**
 * Skills: Markdown files with `name` / `description` frontmatter that the model can load with the
 * read tool (listed in the system prompt) or the user can inline with `/skill:<name>`.
 *
 * Only the frontmatter is kept after loading; the body is read again when `/skill:` expands it.
 * Validation follows upstream Pi: naming problems are warnings and the skill still loads, a
 * missing or blank description (or unparseable frontmatter) keeps it out.
 */
import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import * as v from "valibot";
import { readResourceText } from "../util/config-read.ts";
import { fieldAt, misspeltFields, parseFrontmatter, splitFrontmatter } from "./frontmatter.ts";
import { resolveResourcePaths, type ResourceDiagnostic, type ResourcePathOptions } from "./resource-paths.ts";
import type { SourceInfo } from "./source-info.ts";

export interface Skill {
  name: string;
  description: string;
  /** The skill's Markdown file (usually `…/<name>/SKILL.md`). */
  filePath: string;
  /** The file's directory; relative references in the skill resolve against it. */
  baseDir: string;
  /** `disable-model-invocation: true`: left out of the prompt, still usable through `/skill:`. */
  disableModelInvocation: boolean;
  sourceInfo: SourceInfo;
}

export type LoadSkillsOptions = ResourcePathOptions;

export interface LoadedSkills {
  skills: Skill[];
  diagnostics: ResourceDiagnostic[];
}

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;

/** The Agent Skills format's fields, and pig's own. */
const SKILL_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools", "disable-model-invocation"];

const SkillFrontmatterSchema = v.looseObject({
  name: v.nullish(v.string()),
  description: v.nullish(v.string()),
  "disable-model-invocation": v.optional(v.unknown()),
});

/** The naming rules of the Agent Skills format; each broken one is a warning. */
export function skillNameProblems(name: string, parentDirName: string): string[] {
  const problems: string[] = [];
  if (name !== parentDirName) problems.push(`name "${name}" differs from its directory name "${parentDirName}"`);
  if (name.length > MAX_NAME_LENGTH) problems.push(`name is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}`);
  if (!/^[a-z0-9-]+$/.test(name)) problems.push("name may only use lowercase letters a-z, digits and hyphens");
  if (name.startsWith("-") || name.endsWith("-")) problems.push("name must not begin or end with a hyphen");
  if (name.includes("--")) problems.push('name must not contain two hyphens in a row ("--")');
  return problems;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads one skill file's frontmatter; `skill` is undefined when it cannot be used. */
export function readSkillFile(filePath: string, sourceInfo: SourceInfo): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
  const diagnostics: ResourceDiagnostic[] = [];
  // Messages name the file themselves so they can be shown without the `path` field.
  const warn = (message: string) => diagnostics.push({ type: "warning", message: `${filePath}: ${message}`, path: filePath });
  const text = readResourceText(filePath, "skill", warn);
  if (text === undefined) return { diagnostics };
  let fields: Record<string, unknown>;
  try {
    const frontmatter = parseFrontmatter(text);
    if (frontmatter.problem) {
      warn(`${frontmatter.problem}; skill not loaded`);
      return { diagnostics };
    }
    fields = frontmatter.fields;
  } catch (error) {
    warn(`${errorText(error)}; skill not loaded`);
    return { diagnostics };
  }
  for (const problem of misspeltFields(text, fields, SKILL_FIELDS)) warn(problem);
  const parsed = v.safeParse(SkillFrontmatterSchema, fields);
  if (!parsed.success) {
    const field = String(parsed.issues[0]!.path?.[0]?.key ?? "frontmatter");
    warn(`frontmatter field ${fieldAt(text, field)} must be text, not ${JSON.stringify(fields[field])}; skill not loaded`);
    return { diagnostics };
  }
  const frontmatter = parsed.output;
  const baseDir = dirname(filePath);
  const parentDirName = basename(baseDir);
  const description = frontmatter.description ?? "";
  const hasDescription = description.trim() !== "";
  if (!hasDescription) warn("description is missing or empty; skill not loaded");
  else if (description.length > MAX_DESCRIPTION_LENGTH) {
    warn(`description is ${description.length} characters long; the limit is ${MAX_DESCRIPTION_LENGTH}`);
  }
  const name = frontmatter.name || parentDirName;
  for (const problem of skillNameProblems(name, parentDirName)) warn(problem);
  if (!hasDescription) return { diagnostics };
  return {
    skill: {
      name,
      description,
      filePath,
      baseDir,
      disableModelInvocation: frontmatter["disable-model-invocation"] === true,
      sourceInfo,
    },
    diagnostics,
  };
}

/**
 * The skills of a run, in precedence order (resource-paths.ts); the first skill of a name wins
 * and every later one is reported as a collision.
 */
export function loadSkills(options: LoadSkillsOptions): LoadedSkills {
  const { resources, diagnostics } = resolveResourcePaths("skills", options);
  const byName = new Map<string, Skill>();
  const collisions: ResourceDiagnostic[] = [];
  for (const resource of resources) {
    const result = readSkillFile(resource.path, resource.sourceInfo);
    diagnostics.push(...result.diagnostics);
    const skill = result.skill;
    if (!skill) continue;
    const winner = byName.get(skill.name);
    if (winner) {
      collisions.push({
        type: "collision",
        message: `skill "${skill.name}" at ${skill.filePath} is not loaded: ${winner.filePath} already provides that name`,
        path: skill.filePath,
        collision: { resourceType: "skill", name: skill.name, winnerPath: winner.filePath, loserPath: skill.filePath },
      });
      continue;
    }
    byName.set(skill.name, skill);
  }
  // Collisions last, as upstream reports them.
  return { skills: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * The system-prompt section listing the skills the model may load (all but those with
 * `disable-model-invocation`), or "" when there are none. The XML layout is the Agent Skills
 * one upstream uses; the instruction lines are pig's own.
 */
export function skillsPromptBlock(skills: readonly Pick<Skill, "name" | "description" | "filePath" | "disableModelInvocation">[]): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const lines = [
    "\n\nThe skills below hold extra instructions for particular kinds of task.",
    "When a task fits a skill's description, read that skill's file with the read tool before you start.",
    "Paths written inside a skill file are relative to the skill's directory (the folder containing the file); turn them into absolute paths before passing them to tools.",
    "",
    "<available_skills>",
  ];
  for (const skill of visible) {
    lines.push(
      "  <skill>",
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.filePath)}</location>`,
      "  </skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

export interface SkillExpansion {
  /** The expanded text, or the input unchanged (not a skill command, unknown skill, or read error). */
  text: string;
  /** The skill named by the command, when there is one. */
  skill?: Skill;
  /** Why the skill's file could not be read (reported upstream as an extension error `skill_expansion`). */
  error?: string;
}

/**
 * `/skill:<name> [args]` → the skill's body wrapped in a `<skill>` element, followed by the
 * arguments. As upstream, the name runs to the first space (only a space separates it).
 */
export function expandSkillCommand(text: string, skills: readonly Skill[]): SkillExpansion {
  const prefix = "/skill:";
  if (!text.startsWith(prefix)) return { text };
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(prefix.length) : text.slice(prefix.length, space);
  const args = space === -1 ? "" : text.slice(space + 1).trim();
  const skill = skills.find((s) => s.name === name);
  if (!skill) return { text };
  let body: string;
  try {
    body = splitFrontmatter(readFileSync(skill.filePath, "utf8")).body.trim();
  } catch (error) {
    return { text, skill, error: errorText(error) };
  }
  const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
  return { text: args ? `${block}\n\n${args}` : block, skill };
}
