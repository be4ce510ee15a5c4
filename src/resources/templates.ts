/**
 * Prompt templates: Markdown files whose body replaces a `/<name> args…` message, with the
 * arguments substituted for `$1`, `$@`, `$ARGUMENTS`, `${@:N}` and `${@:N:L}`.
 */
import { basename } from "node:path";
import { readResourceText } from "../util/config-read.ts";
import { fieldAt, misspeltFields, parseFrontmatter } from "./frontmatter.ts";
import { resolveResourcePaths, type ResourceDiagnostic, type ResourcePathOptions } from "./resource-paths.ts";
import type { SourceInfo } from "./source-info.ts";

export interface PromptTemplate {
  /** The file name without `.md`; invoked as `/<name>`. */
  name: string;
  description: string;
  /** Frontmatter `argument-hint`, shown next to the name when completing commands. */
  argumentHint?: string;
  /** The body, frontmatter removed. */
  content: string;
  filePath: string;
  sourceInfo: SourceInfo;
}

export type LoadPromptTemplatesOptions = ResourcePathOptions;

export interface LoadedPromptTemplates {
  templates: PromptTemplate[];
  diagnostics: ResourceDiagnostic[];
}

const DESCRIPTION_FALLBACK_LENGTH = 60;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first non-empty body line, cut to 60 characters with "..." when it was longer. */
function firstLineDescription(body: string): string {
  const line = body.split("\n").find((l) => l.trim() !== "");
  if (line === undefined) return "";
  return line.length > DESCRIPTION_FALLBACK_LENGTH ? `${line.slice(0, DESCRIPTION_FALLBACK_LENGTH)}...` : line;
}

const TEMPLATE_FIELDS = ["description", "argument-hint"];

/** Reads one template file; `template` is undefined (with a warning) when it cannot be used. */
export function readTemplateFile(filePath: string, sourceInfo: SourceInfo): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
  const diagnostics: ResourceDiagnostic[] = [];
  const warn = (message: string) => diagnostics.push({ type: "warning", message: `${filePath}: ${message}`, path: filePath });
  const text = readResourceText(filePath, "prompt template", warn);
  if (text === undefined) return { diagnostics };
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text);
  } catch (error) {
    // Upstream drops such a template silently; saying why is more useful.
    warn(`${errorText(error)}; prompt template not loaded`);
    return { diagnostics };
  }
  const { fields, body } = parsed;
  if (parsed.problem) warn(`${parsed.problem}; it is ignored`);
  for (const problem of misspeltFields(text, fields, TEMPLATE_FIELDS)) warn(problem);
  // A field of the wrong type is left out, as if absent; the template itself still works.
  const textField = (key: string, instead: string): string | undefined => {
    const value = fields[key];
    if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
    warn(`frontmatter field ${fieldAt(text, key)} must be text, not ${JSON.stringify(value)}; ${instead}`);
    return undefined;
  };
  const given = textField("description", "the first line of the text describes the template instead");
  const description = given ? given : firstLineDescription(body);
  const hint = textField("argument-hint", "no hint is shown");
  const template: PromptTemplate = {
    name: basename(filePath).replace(/\.md$/, ""),
    description,
    ...(hint ? { argumentHint: hint } : {}),
    content: body,
    filePath,
    sourceInfo,
  };
  return { template, diagnostics };
}

/** The templates of a run, in precedence order (resource-paths.ts); the first of a name wins. */
export function loadPromptTemplates(options: LoadPromptTemplatesOptions): LoadedPromptTemplates {
  const { resources, diagnostics } = resolveResourcePaths("prompts", options);
  const byName = new Map<string, PromptTemplate>();
  const collisions: ResourceDiagnostic[] = [];
  for (const resource of resources) {
    const result = readTemplateFile(resource.path, resource.sourceInfo);
    diagnostics.push(...result.diagnostics);
    const template = result.template;
    if (!template) continue;
    const winner = byName.get(template.name);
    if (winner) {
      collisions.push({
        type: "collision",
        message: `prompt template "/${template.name}" at ${template.filePath} is not loaded: ${winner.filePath} already provides that name`,
        path: template.filePath,
        collision: { resourceType: "prompt", name: template.name, winnerPath: winner.filePath, loserPath: template.filePath },
      });
      continue;
    }
    byName.set(template.name, template);
  }
  return { templates: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

/**
 * Splits template arguments on spaces and tabs; single or double quotes group words (the quote
 * characters are dropped, there are no escapes, and an unclosed quote runs to the end).
 */
export function parseTemplateArgs(rest: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of rest) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === " " || ch === "\t") {
      if (current) args.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  if (current) args.push(current);
  return args;
}

/**
 * Fills the placeholders in one pass over the template, so text coming from the arguments is
 * never substituted again: `$N` (1-based; missing → ""), `${@:N}` (args from the N-th, N=0 read
 * as 1), `${@:N:L}` (L args from the N-th), `$ARGUMENTS` and `$@` (all args, space-joined).
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(" ");
  return content.replace(/\$(\d+)|\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@/g, (match, num?: string, start?: string, length?: string) => {
    if (num !== undefined) return args[Number.parseInt(num, 10) - 1] ?? "";
    if (start !== undefined) {
      const from = Math.max(Number.parseInt(start, 10) - 1, 0);
      const slice = length !== undefined ? args.slice(from, from + Number.parseInt(length, 10)) : args.slice(from);
      return slice.join(" ");
    }
    return match === "$ARGUMENTS" || match === "$@" ? all : match;
  });
}

/**
 * `/<name> args…` → the named template with the arguments substituted; anything else unchanged.
 * As upstream, the name runs to the first space (a tab or newline does not end it).
 */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
  if (!text.startsWith("/")) return text;
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(1) : text.slice(1, space);
  const template = templates.find((t) => t.name === name);
  if (!template) return text;
  return substituteArgs(template.content, parseTemplateArgs(space === -1 ? "" : text.slice(space + 1)));
}
