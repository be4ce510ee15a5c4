/**
 * Completion of a slash command name typed at the very start of the buffer ("/mo" → "/model ").
 * Names starting with what was typed come first, alphabetically, then other fuzzy matches; each
 * with its description on one line. A path (`/usr/bin`) or a doubled slash (`//`, which sends
 * a slash as text) is not a command name.
 */
import type { CompletionItem, CompletionProvider } from "./completion.ts";
import { rankFuzzy } from "./fuzzy.ts";

/** A command as completion lists it: name, description, argument hint (the interactive SlashCommand runs). */
export interface CompletableCommand {
  name: string;
  description?: string;
  /** What the command takes, e.g. "<name>"; shown before the description. */
  argumentHint?: string;
}

/** The command token under the cursor: "/" then non-space characters, starting the buffer. */
function commandToken(text: string, cursor: number): { query: string; end: number } | undefined {
  if (!text.startsWith("/")) return undefined;
  const space = text.search(/\s/);
  const end = space === -1 ? text.length : space;
  if (cursor > end || cursor < 1) return undefined;
  if (text.slice(1, end).includes("/")) return undefined;
  return { query: text.slice(1, cursor), end };
}

/** The hint a command is listed with: its argument hint and the first line of its description. */
function commandHint(command: CompletableCommand): string | undefined {
  const description = command.description?.trim().split("\n")[0]?.trim();
  const hint = [command.argumentHint, description].filter(Boolean).join("  ");
  return hint || undefined;
}

/** `commands` may be a function so the list can change (prompt templates, skills). */
export function slashCommandProvider(commands: readonly CompletableCommand[] | (() => readonly CompletableCommand[])): CompletionProvider {
  return async (text, cursor) => {
    const token = commandToken(text, cursor);
    if (!token) return undefined;
    const list = typeof commands === "function" ? commands() : commands;
    const query = token.query.toLowerCase();
    const prefixed = list.filter((command) => command.name.toLowerCase().startsWith(query));
    prefixed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const others = rankFuzzy(query, list.filter((command) => !prefixed.includes(command)), (command) => command.name, 50);
    const items: CompletionItem[] = [...prefixed, ...others].map((command) => {
      const hint = commandHint(command);
      return { value: `/${command.name} `, label: `/${command.name}`, ...(hint ? { hint } : {}) };
    });
    return items.length > 0 ? { replaceFrom: 0, replaceTo: token.end, items } : undefined;
  };
}
