/**
 * Every name a typed `/name` can mean, for completion, `/help` and telling an unknown command
 * from a known one: pig's own commands, then prompt templates (`/name`), extension commands,
 * then skills (`/skill:name`). A template or extension command named like one of pig's commands
 * is left out: pig's command runs.
 */
import { closestName } from "../../../util/closest.ts";
import type { SlashCommand } from "../host.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

export type CommandSource = "command" | "template" | "extension" | "skill";

export interface CommandEntry {
  name: string;
  description: string;
  argumentHint?: string;
  source: CommandSource;
}

/** The parts of the loaded resources the catalog reads. */
export interface CommandResources {
  templates: readonly { name: string; description: string; argumentHint?: string }[];
  skills: readonly { name: string; description: string }[];
}

export interface CatalogOptions {
  /** Skills as `/skill:name` (setting `enableSkillCommands`; typing one works either way). */
  skills?: boolean;
  /** Extension commands by invocation name. */
  extensions?: readonly { name: string; description?: string }[];
}

/** Descriptions and hints of templates, skills and extension commands come from files and extensions: shown safe. */
function shownEntry(entry: CommandEntry): CommandEntry {
  return { ...entry, description: terminalSafe(entry.description), ...(entry.argumentHint !== undefined ? { argumentHint: terminalSafe(entry.argumentHint) } : {}) };
}

export function commandCatalog(commands: readonly SlashCommand[], resources: CommandResources, options: CatalogOptions = {}): CommandEntry[] {
  const builtin = new Set(commands.map((command) => command.name));
  return [
    ...commands.map((c): CommandEntry => ({ name: c.name, description: c.description, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}), source: "command" })),
    ...resources.templates
      .filter((t) => !builtin.has(t.name))
      .map((t): CommandEntry => ({ name: t.name, description: t.description, ...(t.argumentHint ? { argumentHint: t.argumentHint } : {}), source: "template" })),
    ...(options.extensions ?? []).filter((e) => !builtin.has(e.name)).map((e): CommandEntry => ({ name: e.name, description: e.description ?? "", source: "extension" })),
    ...(options.skills === false ? [] : resources.skills.map((s): CommandEntry => ({ name: `skill:${s.name}`, description: s.description, source: "skill" }))),
  ].map(shownEntry);
}

/** The known name `name` is probably a slip for ("mdoel" → "model"), if any. */
export function nearCommandName(name: string, entries: readonly CommandEntry[]): string | undefined {
  return closestName(name, entries.map((entry) => entry.name));
}

/** What pig says to a `/name` that is none of its commands, templates or skills. */
export function unknownCommandMessage(name: string, entries: readonly CommandEntry[]): string {
  const near = nearCommandName(name, entries);
  return `Unknown command /${name} — ${near ? `did you mean /${near}? ` : ""}/help lists the commands`;
}
