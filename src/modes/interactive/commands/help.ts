/**
 * `/help`: every command that can be typed (pig's own, prompt templates, skills), each with what
 * it does, then the keys in force (the rows of `/hotkeys`).
 */
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { commandCatalog, type CommandEntry, type CommandSource } from "./catalog.ts";
import { hotkeyRows } from "./info.ts";
import { about } from "./about.ts";

const SECTIONS: readonly (readonly [CommandSource, string])[] = [
  ["command", "Commands"],
  ["template", "Prompt templates"],
  ["extension", "Extension commands"],
  ["skill", "Skills"],
];

/** Names longer than this do not widen the column; their description follows after two spaces. */
const MAX_NAME_COLUMN = 28;

function entryName(entry: CommandEntry): string {
  return `/${entry.name}${entry.argumentHint ? ` ${entry.argumentHint}` : ""}`;
}

function oneLine(text: string): string {
  return text.trim().split("\n")[0]?.trim() ?? "";
}

/** The lines `/help` prints: a section per kind of command, alphabetically, then the keys. */
export function helpLines(host: InteractiveHost, commands: readonly SlashCommand[]): string[] {
  const accent = (text: string) => host.theme.fg("accent", text);
  const heading = (text: string) => host.theme.bold(text);
  const entries = commandCatalog(commands, host.resources, {
    skills: host.settings.settings.enableSkillCommands !== false,
    ...(host.extensionCommands ? { extensions: host.extensionCommands() } : {}),
  });
  const keys = hotkeyRows(host.keybindings);
  const width = Math.min(MAX_NAME_COLUMN, Math.max(...entries.map((entry) => entryName(entry).length), ...keys.map(([key]) => key.length)));
  const row = (name: string, what: string) => `  ${accent(name.padEnd(width))}  ${what}`;
  const lines: string[] = [];
  for (const [source, title] of SECTIONS) {
    const section = entries.filter((entry) => entry.source === source).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (section.length === 0) continue;
    lines.push(heading(title));
    for (const entry of section) lines.push(row(entryName(entry), oneLine(entry.description)));
  }
  lines.push(heading("Keys"));
  for (const [key, what] of keys) lines.push(row(key, what));
  return lines;
}

/** `/help`, listing `commands()` (the list it is part of). */
export function helpCommand(commands: () => readonly SlashCommand[]): SlashCommand {
  return {
    ...about("help"),
    async run(host) {
      host.print(helpLines(host, commands()).join("\n"));
    },
  };
}
