/**
 * Piglets: named agents. A Piglet file (`<name>.md` with frontmatter, or `<name>.json`) in the
 * user's `<agentDir>/piglets/` or a trusted project's `.pig/piglets/` chooses the model,
 * thinking level, tools, extensions, skills, prompt templates and system prompt of one job.
 * The name is the file's name; a project Piglet of the same name overrides the user's.
 * In Markdown the body is the text appended to the system prompt (`appendSystem`).
 */
import { readdirSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import * as v from "valibot";
import { THINKING_LEVELS } from "../session/format.ts";
import { builtOnce } from "../util/built-once.ts";
import { readConfigText } from "../util/config-read.ts";
import { JsoncError, parseJsonc } from "../util/jsonc.ts";
import { builtInPiglet, builtInPigletPath, builtInPiglets, findBuiltInPiglet } from "./built-in-piglets.ts";
import { fieldLine, FrontmatterError, misspeltFields, parseFrontmatter } from "./frontmatter.ts";
import type { Piglet, PigletScope } from "./piglet.ts";

/** A Piglet file pig cannot use: the file, the line and the field at fault. */
export class PigletError extends Error {
  constructor(
    readonly filePath: string,
    readonly line: number | undefined,
    readonly field: string | undefined,
    reason: string,
  ) {
    super(`${filePath}${line ? `:${line}` : ""}: ${field ? `field "${field}": ` : ""}${reason}`);
    this.name = "PigletError";
  }
}

const PIGLET_FIELDS = ["name", "description", "model", "thinking", "tools", "extensions", "skills", "prompts", "system", "appendSystem"];

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// Built the first time a Piglet file is read: most runs read none.
const pigletFieldsSchema = builtOnce(() => {
  const Names = v.union(
    [v.pipe(v.string(), v.transform((s) => s.split(",").map((t) => t.trim()).filter(Boolean))), v.array(v.pipe(v.string(), v.nonEmpty("must not be empty")))],
    "must be a list of names (or one comma-separated string)",
  );
  const Paths = v.union([v.pipe(v.string(), v.transform((s) => [s])), v.array(v.pipe(v.string(), v.nonEmpty("must not be empty")))], "must be a list of paths");
  const Text = v.string("must be text");
  return v.looseObject({
    name: v.optional(v.pipe(v.string("must be text"), v.regex(NAME, "must be letters, digits, '.', '_' or '-'"))),
    description: v.optional(Text),
    model: v.optional(v.pipe(v.string("must be text"), v.nonEmpty("must not be empty"))),
    thinking: v.optional(v.picklist(THINKING_LEVELS, `must be one of ${THINKING_LEVELS.join(", ")}`)),
    tools: v.optional(Names),
    extensions: v.optional(Paths),
    skills: v.optional(Paths),
    prompts: v.optional(Paths),
    system: v.optional(Text),
    appendSystem: v.optional(Text),
  });
});

/** The line of `"key":` in a JSON text (1-based), if it is there. */
function jsonFieldLine(text: string, key: string): number | undefined {
  const index = text.split("\n").findIndex((line) => line.includes(`"${key}"`));
  return index === -1 ? undefined : index + 1;
}

/** The fields (and, in Markdown, the body) of a Piglet file's text. */
function readFields(filePath: string, text: string): { fields: Record<string, unknown>; body: string; lineOf: (key: string) => number | undefined; warnings: string[] } {
  if (extname(filePath) === ".json") {
    let parsed: unknown;
    try {
      // Hand-written, as settings are: comments and trailing commas are allowed.
      parsed = parseJsonc(text);
    } catch (error) {
      if (!(error instanceof JsoncError)) throw error;
      throw new PigletError(filePath, error.line, undefined, `invalid JSON: ${error.message}`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new PigletError(filePath, 1, undefined, "must be a JSON object of fields");
    return { fields: parsed as Record<string, unknown>, body: "", lineOf: (key) => jsonFieldLine(text, key), warnings: [] };
  }
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text);
  } catch (error) {
    if (error instanceof FrontmatterError) throw new PigletError(filePath, error.line, undefined, error.message);
    throw error;
  }
  if (parsed.problem) throw new PigletError(filePath, 2, undefined, parsed.problem);
  const warnings = misspeltFields(text, parsed.fields, PIGLET_FIELDS).map((w) => `${filePath}: ${w}`);
  return { fields: parsed.fields, body: parsed.body, lineOf: (key) => fieldLine(text, key), warnings };
}

/** Parses one Piglet file's text; throws `PigletError` naming the file, line and field at fault. */
export function parsePiglet(filePath: string, text: string, scope: PigletScope): { piglet: Piglet; warnings: string[] } {
  const { fields, body, lineOf, warnings } = readFields(filePath, text);
  const result = v.safeParse(pigletFieldsSchema(), fields);
  if (!result.success) {
    const issue = result.issues[0]!;
    const field = v.getDotPath(issue)?.split(".")[0];
    throw new PigletError(filePath, field ? lineOf(field) : undefined, field, `${issue.message} (got ${JSON.stringify(issue.input)})`);
  }
  const out = result.output;
  const name = pigletName(filePath);
  if (out.name !== undefined && out.name !== name) {
    throw new PigletError(filePath, lineOf("name"), "name", `is "${out.name}" but the file is named "${basename(filePath)}": a Piglet's name is its file's name`);
  }
  if (out.appendSystem !== undefined && body !== "") {
    throw new PigletError(filePath, lineOf("appendSystem"), "appendSystem", "is given and the file has a body too: the body is the text to append, so give one of them");
  }
  const dir = dirname(filePath);
  const paths = (list: string[] | undefined) => list?.map((p) => resolve(dir, p.startsWith("~/") ? join(process.env.HOME ?? "", p.slice(2)) : p));
  const appendSystem = out.appendSystem ?? (body !== "" ? body : undefined);
  const piglet: Piglet = {
    name,
    description: out.description ?? "",
    filePath,
    scope,
    ...(out.model !== undefined ? { model: out.model } : {}),
    ...(out.thinking !== undefined ? { thinking: out.thinking } : {}),
    ...(out.tools !== undefined ? { tools: out.tools } : {}),
    ...(out.extensions !== undefined ? { extensions: paths(out.extensions)! } : {}),
    ...(out.skills !== undefined ? { skills: paths(out.skills)! } : {}),
    ...(out.prompts !== undefined ? { prompts: paths(out.prompts)! } : {}),
    ...(out.system !== undefined ? { system: out.system } : {}),
    ...(appendSystem !== undefined ? { appendSystem } : {}),
  };
  return { piglet, warnings };
}

/** `reviewer` for `…/reviewer.md` and `…/reviewer.json`. */
export function pigletName(filePath: string): string {
  return basename(filePath).replace(/\.(md|json)$/, "");
}

/** Where Piglets are kept: the user's, and the project's (read only when it is trusted). */
export function pigletDirs(agentDir: string, cwd: string): { dir: string; scope: PigletScope }[] {
  return [
    { dir: join(agentDir, "piglets"), scope: "user" },
    { dir: join(cwd, ".pig", "piglets"), scope: "project" },
  ];
}

export interface PigletFile {
  name: string;
  filePath: string;
  scope: PigletScope;
  /** A built-in Piglet's files are unpacked under this agent directory. */
  agentDir?: string;
}

/** The Piglet files in one directory (`.md` and `.json`), sorted by name. */
function filesIn(dir: string, scope: PigletScope): PigletFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => (n.endsWith(".md") || n.endsWith(".json")) && !n.startsWith("."))
    .sort()
    .map((n) => ({ name: pigletName(n), filePath: join(dir, n), scope }));
}

export interface PigletCatalog {
  /** One file per name: the project's over the user's. */
  files: PigletFile[];
  /** Project Piglet files that were not read because the project is not trusted. */
  untrusted: PigletFile[];
  /** Two files of one name in one directory (`x.md` and `x.json`). */
  problems: string[];
}

/**
 * The Piglet files there are, by name; a trusted project's override the user's of the same name.
 * A Piglet Binary's built-in Piglets are part of it and are not overridden: a file of the same
 * name is ignored, and said.
 */
export function findPiglets(options: { agentDir: string; cwd: string; trusted: boolean }): PigletCatalog {
  const byName = new Map<string, PigletFile>();
  const untrusted: PigletFile[] = [];
  const problems: string[] = [];
  const builtIn = new Set(builtInPiglets().map((p) => p.name));
  for (const { dir, scope } of pigletDirs(options.agentDir, options.cwd)) {
    const files = filesIn(dir, scope);
    if (scope === "project" && !options.trusted) {
      untrusted.push(...files);
      continue;
    }
    const seen = new Set<string>();
    for (const file of files) {
      if (seen.has(file.name)) {
        problems.push(`${file.filePath}: another Piglet in ${dir} is named "${file.name}"; this one is ignored`);
        continue;
      }
      seen.add(file.name);
      if (builtIn.has(file.name)) {
        problems.push(`${file.filePath}: this binary has a built-in Piglet named "${file.name}"; the file is ignored`);
        continue;
      }
      byName.set(file.name, file);
    }
  }
  for (const name of builtIn) byName.set(name, { name, filePath: builtInPigletPath(name), scope: "built-in", agentDir: options.agentDir });
  return { files: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), untrusted, problems };
}

/** Reads one Piglet file; throws `PigletError` when it cannot be used. */
export function readPiglet(file: PigletFile): { piglet: Piglet; warnings: string[] } {
  const builtIn = file.scope === "built-in" ? findBuiltInPiglet(file.name) : undefined;
  if (builtIn) return { piglet: builtInPiglet(builtIn, file.agentDir ?? dirname(file.filePath)), warnings: [] };
  const read = readConfigText(file.filePath);
  if (read.kind !== "text") throw new PigletError(file.filePath, undefined, undefined, read.kind === "absent" ? "does not exist" : read.reason);
  return parsePiglet(file.filePath, read.text, file.scope);
}

/** An unknown name: which Piglets there are, and a project one the trust gate kept out. */
export function unknownPigletMessage(name: string, catalog: PigletCatalog, agentDir: string): string {
  const known = catalog.files.map((f) => f.name);
  const held = catalog.untrusted.find((f) => f.name === name);
  if (held) return `Piglet "${name}" is the project's (${held.filePath}) and the project is not trusted; trust it (--trust) to use it`;
  return `unknown Piglet "${name}"; ${known.length > 0 ? `the Piglets there are: ${known.join(", ")}` : "there are none"} (in ${join(agentDir, "piglets")}/ and a trusted project's .pig/piglets/)`;
}

/** The Piglet named `name`; throws `PigletError` (a bad file) or `Error` (an unknown name). */
export function loadPiglet(name: string, options: { agentDir: string; cwd: string; trusted: boolean }): { piglet: Piglet; warnings: string[] } {
  const catalog = findPiglets(options);
  const file = catalog.files.find((f) => f.name === name);
  if (!file) throw new UnknownPigletError(unknownPigletMessage(name, catalog, options.agentDir));
  const read = readPiglet(file);
  return { piglet: read.piglet, warnings: [...catalog.problems, ...read.warnings] };
}

export class UnknownPigletError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownPigletError";
  }
}
