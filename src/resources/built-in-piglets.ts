/**
 * The Piglets built into a Piglet Binary (binary-identity.ts), as Piglets a run can use. Their
 * skill and prompt-template files travel inside the binary and are unpacked once into
 * `<agentDir>/built-in/<name>-<hash>/` — where a skill's own relative paths (scripts, references)
 * work as they did where it was built. The unpacked copy is replaced, never edited: a new hash is
 * a new directory, written beside it and renamed into place.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { binaryIdentity, type BuiltInPigletData } from "../binary-identity.ts";
import { THINKING_LEVELS } from "../session/format.ts";
import type { Piglet } from "./piglet.ts";

/** What a built-in Piglet's messages name as its file. */
export function builtInPigletPath(name: string): string {
  return `${process.execPath} (built-in Piglet ${name})`;
}

export function builtInPiglets(): readonly BuiltInPigletData[] {
  return binaryIdentity().piglets;
}

export function findBuiltInPiglet(name: string): BuiltInPigletData | undefined {
  return builtInPiglets().find((p) => p.name === name);
}

/** The directory its files are unpacked in (written now if it is not there yet). */
export function unpackBuiltInPiglet(data: BuiltInPigletData, agentDir: string): string {
  const dir = join(agentDir, "built-in", `${data.name}-${data.hash.slice(0, 16)}`);
  if (existsSync(join(dir, ".complete"))) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  for (const [rel, [content, mode]] of Object.entries(data.files)) {
    const path = join(partial, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(content, "base64"), { mode });
  }
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, ".complete"), `${data.source}\n`);
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another pig unpacked the same files at the same moment: theirs is as good.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(dir, ".complete"))) throw error;
  }
  return dir;
}

/** A built-in Piglet as a run uses it. Its extensions are the binary's linked ones (always loaded). */
export function builtInPiglet(data: BuiltInPigletData, agentDir: string): Piglet {
  const needsFiles = (data.skills?.length ?? 0) + (data.prompts?.length ?? 0) > 0;
  const dir = needsFiles ? unpackBuiltInPiglet(data, agentDir) : "";
  const thinking = (THINKING_LEVELS as readonly string[]).includes(data.thinking ?? "") ? (data.thinking as Piglet["thinking"]) : undefined;
  return {
    name: data.name,
    description: data.description,
    filePath: builtInPigletPath(data.name),
    scope: "built-in",
    ...(data.model !== undefined ? { model: data.model } : {}),
    ...(thinking !== undefined ? { thinking } : {}),
    ...(data.tools !== undefined ? { tools: [...data.tools] } : {}),
    // Its extensions are linked into the binary and load in every run of it: a selection of
    // nothing more than those.
    ...(data.selectsExtensions ? { extensions: [] } : {}),
    ...(data.skills !== undefined ? { skills: data.skills.map((p) => resolve(dir, p)) } : {}),
    ...(data.prompts !== undefined ? { prompts: data.prompts.map((p) => resolve(dir, p)) } : {}),
    ...(data.system !== undefined ? { system: data.system } : {}),
    ...(data.appendSystem !== undefined ? { appendSystem: data.appendSystem } : {}),
  };
}
