/**
 * `pig build --piglet <name|file>`: a Piglet baked into the binary as its default. Its
 * TypeScript extensions are linked in; its skill and prompt-template files are carried inside
 * (binary-identity.ts) and unpacked where the binary runs; its other fields are copied as they
 * were read. Everything it names is checked here, so a binary that builds has all it needs.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { BuiltInPigletData } from "../binary-identity.ts";
import { discoverExtensions } from "../extensions/discovery.ts";
import type { Piglet } from "../resources/piglet.ts";
import { loadPiglet, pigletName, PigletError, readPiglet, UnknownPigletError } from "../resources/piglets.ts";
import { decideTrust } from "../resources/trust.ts";
import { CliError } from "./errors.ts";

/** More than this inside a binary is almost surely a mistake (a skill folder holding a checkout). */
const MAX_FILES_BYTES = 32 * 1024 * 1024;
const SKIPPED_DIRS = new Set([".git", "node_modules"]);

export interface BakedPiglet {
  data: BuiltInPigletData;
  /** The extension files to link, in the Piglet's order. */
  extensions: string[];
}

/** A name (found as `--piglet` finds it) or the path of a Piglet file. */
export async function bakePiglet(spec: string, where: { cwd: string; agentDir: string }): Promise<BakedPiglet> {
  const piglet = await readSpec(spec, where);
  const files: BuiltInPigletData["files"] = {};
  let bytes = 0;
  const carry = (kind: "skills" | "prompts", paths: readonly string[] | undefined): string[] | undefined =>
    paths?.map((path, i) => {
      if (!existsSync(path)) throw new CliError(`build --piglet ${spec}: ${piglet.filePath}: field "${kind}": ${path} does not exist`);
      const inside = `${kind}/${i}/${basename(path)}`;
      for (const file of filesUnder(path)) {
        const content = readFileSync(file);
        bytes += content.length;
        if (bytes > MAX_FILES_BYTES) {
          throw new CliError(`build --piglet ${spec}: the files of its skills and prompt templates pass ${MAX_FILES_BYTES / 1024 / 1024} MB (at ${file})`);
        }
        const rel = file === path ? inside : `${inside}/${relative(path, file)}`;
        files[rel] = [content.toString("base64"), statSync(file).mode & 0o777];
      }
      return inside;
    });
  const skills = carry("skills", piglet.skills);
  const prompts = carry("prompts", piglet.prompts);
  const extensions = linkable(spec, piglet, where);
  const fields = {
    name: piglet.name,
    description: piglet.description,
    ...(piglet.model !== undefined ? { model: piglet.model } : {}),
    ...(piglet.thinking !== undefined ? { thinking: piglet.thinking } : {}),
    ...(piglet.tools !== undefined ? { tools: piglet.tools } : {}),
    ...(piglet.system !== undefined ? { system: piglet.system } : {}),
    ...(piglet.appendSystem !== undefined ? { appendSystem: piglet.appendSystem } : {}),
    selectsExtensions: piglet.extensions !== undefined,
    ...(skills !== undefined ? { skills } : {}),
    ...(prompts !== undefined ? { prompts } : {}),
    files,
    source: piglet.filePath,
  };
  const hash = createHash("sha256").update(JSON.stringify(fields)).digest("hex");
  return { data: { ...fields, hash }, extensions };
}

async function readSpec(spec: string, where: { cwd: string; agentDir: string }): Promise<Piglet> {
  try {
    if (/\.(md|json)$/.test(spec) || spec.includes("/")) {
      const filePath = resolve(where.cwd, spec);
      if (!existsSync(filePath)) throw new CliError(`build --piglet ${spec}: ${filePath} does not exist`);
      return readPiglet({ name: pigletName(filePath), filePath, scope: "user" }).piglet;
    }
    // A project's Piglets only when the project is trusted, as for a run.
    const trust = await decideTrust({ cwd: where.cwd, agentDir: where.agentDir, interactive: false });
    return loadPiglet(spec, { ...where, trusted: trust.trusted }).piglet;
  } catch (error) {
    if (error instanceof PigletError || error instanceof UnknownPigletError) throw new CliError(`build --piglet ${spec}: ${error.message}`);
    throw error;
  }
}

/** The Piglet's extensions as files to link: TypeScript or JavaScript, found as `-e` finds them. */
function linkable(spec: string, piglet: Piglet, where: { cwd: string; agentDir: string }): string[] {
  if (!piglet.extensions || piglet.extensions.length === 0) return [];
  const found = discoverExtensions({ cwd: where.cwd, agentDir: where.agentDir, projectTrusted: false, cliPaths: piglet.extensions, noExtensions: true });
  if (found.errors.length > 0) throw new CliError(`build --piglet ${spec}: ${piglet.filePath}: field "extensions": ${found.errors.join("; ")}`);
  return found.sources.map((source) => {
    if (source.runtime !== "typescript" || source.entry !== source.id) {
      throw new CliError(
        `build --piglet ${spec}: ${piglet.filePath}: field "extensions": ${source.id} is not a TypeScript or JavaScript module; a Piglet Binary links only those (load others with -e when it runs)`,
      );
    }
    return source.id;
  });
}

/** A file, or every file under a directory (sorted; `.git` and `node_modules` left out). */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(child));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}
