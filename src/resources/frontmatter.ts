/**
 * The `---` YAML frontmatter of Markdown resources (skills, prompt templates): splitting it off,
 * parsing it, and saying where it is wrong. Bun's YAML parser reports no position, so a syntax
 * error is placed at the first line from which the frontmatter stops parsing.
 */
import { closestName } from "../util/closest.ts";
import { isPlainObject } from "../util/plain-object.ts";

export interface FrontmatterSplit {
  /** The YAML between the opening `---` line and the next line starting with `---`; undefined when absent. */
  yaml: string | undefined;
  /** The rest, trimmed when there was frontmatter (line endings normalised to `\n` either way). */
  body: string;
}

/**
 * Splits frontmatter the way upstream does (the format users write, so the rule is kept exact):
 * the text must start with `---`; the YAML runs from the fifth character to the next `\n---`.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const normalized = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  if (!normalized.startsWith("---")) return { yaml: undefined, body: normalized };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { yaml: undefined, body: normalized };
  return { yaml: normalized.slice(4, end), body: normalized.slice(end + 4).trim() };
}

/** Invalid YAML; `line` is the file's line (the opening `---` is line 1). */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "FrontmatterError";
  }
}

export interface ParsedFrontmatter {
  /** The frontmatter fields; empty when there is none or it is not a mapping. */
  fields: Record<string, unknown>;
  body: string;
  /** Set when there is frontmatter but it is not a mapping of fields (a list, a bare value). */
  problem?: string;
}

function parses(yaml: string): boolean {
  try {
    Bun.YAML.parse(yaml);
    return true;
  } catch {
    return false;
  }
}

/** The first line (1-based, within the YAML) after the longest prefix of lines that parses. */
function failingLine(yaml: string): number {
  const lines = yaml.split("\n");
  for (let kept = lines.length - 1; kept > 0; kept--) {
    if (parses(lines.slice(0, kept).join("\n"))) return kept + 1;
  }
  return 1;
}

/** Splits and parses the frontmatter; throws `FrontmatterError` (with its line) when the YAML is invalid. */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const { yaml, body } = splitFrontmatter(text);
  if (!yaml) return { fields: {}, body };
  let parsed: unknown;
  try {
    parsed = Bun.YAML.parse(yaml);
  } catch (error) {
    const line = failingLine(yaml) + 1;
    const reason = (error as Error).message.replace(/^YAML Parse error:\s*/, "");
    throw new FrontmatterError(`invalid YAML frontmatter at line ${line} (${reason})`, line);
  }
  if (isPlainObject(parsed)) return { fields: parsed, body };
  if (parsed === null || parsed === undefined) return { fields: {}, body };
  const what = Array.isArray(parsed) ? "a list" : `the value ${JSON.stringify(parsed)}`;
  return { fields: {}, body, problem: `the frontmatter must be fields ("name: value" lines), not ${what}` };
}

/** The file line of top-level field `key` in the frontmatter, if it is written there. */
export function fieldLine(text: string, key: string): number | undefined {
  const { yaml } = splitFrontmatter(text);
  if (yaml === undefined) return undefined;
  const index = yaml.split("\n").findIndex((line) => line.startsWith(`${key}:`) || line.startsWith(`${key} :`) || line.startsWith(`"${key}"`));
  return index === -1 ? undefined : index + 2;
}

/** `"name" (line 2)`, or just the quoted name when its line is not found. */
export function fieldAt(text: string, key: string): string {
  const line = fieldLine(text, key);
  return `"${key}"${line ? ` (line ${line})` : ""}`;
}

/**
 * Fields that look like a misspelling of a known one. Other fields pass without a word: these
 * files are shared with other programs, which add fields of their own.
 */
export function misspeltFields(text: string, fields: Record<string, unknown>, known: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of Object.keys(fields)) {
    if (known.includes(key)) continue;
    const guess = closestName(key, known);
    if (guess) out.push(`frontmatter field ${fieldAt(text, key)} is not one pig knows (did you mean "${guess}"?); ignored`);
  }
  return out;
}
