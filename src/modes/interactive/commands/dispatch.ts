/**
 * Recognising a slash command in submitted text. Only built-in commands are run here; any other
 * `/name` is left to the caller, which sends skills (`/skill:name`) and prompt templates to the
 * agent session, where they are expanded, and refuses the rest as unknown commands.
 */
import type { SlashCommand } from "../host.ts";

export interface ParsedSlash {
  name: string;
  /** Everything after the name, trimmed ("" when none). */
  args: string;
}

// A name starts and ends with a letter or digit; `:`, `.`, `-` and `_` may come between
// (`/skill:review`). A slash inside the name (`/usr/bin/env ...`) means a path was typed, and
// `/tmp: No space left` a message, not a command. Text that starts with a space is never one.
const SLASH = /^\/([A-Za-z0-9](?:[\w:.-]*[A-Za-z0-9_])?)(?:\s+([\s\S]*))?$/;

/** `{ name, args }` for text that starts with a slash command, else undefined. */
export function parseSlash(text: string): ParsedSlash | undefined {
  const match = SLASH.exec(text.trimEnd());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}

export function findCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((command) => command.name === name);
}
