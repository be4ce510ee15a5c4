/**
 * What completion and `/help` show of each built-in slash command: its name, what it does, and
 * its arguments. The one table of them: each command takes its own from here, and the command
 * list (index.ts) makes every command from it before its module is loaded (on first use).
 */
export interface CommandAbout {
  readonly name: string;
  readonly description: string;
  readonly argumentHint?: string;
}

const ABOUT = {
  clone: { description: "Copy the current branch into a new session" },
  compact: { description: "Summarize older messages to free context", argumentHint: "[instructions]" },
  copy: { description: "Copy the last answer to the clipboard" },
  exit: { description: "Quit pig (as /quit)" },
  expand: { description: "Show tool result N in full, or collapse/expand all of them", argumentHint: "[N]" },
  export: { description: "Export the session to an HTML file (or the current branch to a .jsonl session file)", argumentHint: "[file.html | file.jsonl]" },
  extensions: { description: "List the loaded extensions: process, state, events, calls and errors" },
  fork: { description: "Start a new session from before one of your messages" },
  help: { description: "List the commands and keys" },
  hotkeys: { description: "Show keyboard shortcuts" },
  import: { description: "Copy a session file into this project and continue it", argumentHint: "<file.jsonl>" },
  label: { description: "Label the current entry (no text clears the label)", argumentHint: "[text]" },
  login: { description: "Sign in with an account (subscription) or store an API key", argumentHint: "[provider]" },
  logout: { description: "Remove a stored subscription login or API key", argumentHint: "[provider]" },
  model: { description: "Choose the model", argumentHint: "[search]" },
  name: { description: "Name the session", argumentHint: "<name>" },
  new: { description: "Start a new session" },
  piglet: { description: "Switch to a Piglet (a named agent) for the rest of the session", argumentHint: "[name]" },
  quit: { description: "Quit pig" },
  reload: { description: "Reload settings, keybindings, skills, prompt templates and context files" },
  resume: { description: "Resume another session", argumentHint: "[search]" },
  "scoped-models": { description: "Choose the models Ctrl+P cycles through" },
  session: { description: "Show the session's file, id, size, tokens and cost" },
  settings: { description: "Change settings (thinking, theme, queue modes, compaction, …)" },
  share: { description: "Upload the session as a secret GitHub gist (needs gh)" },
  tree: { description: "Go to another point of the session tree" },
} satisfies Record<string, Omit<CommandAbout, "name">>;

export type BuiltinCommandName = keyof typeof ABOUT;

/** The built-in command `name`'s name, description and argument hint. */
export function about(name: BuiltinCommandName): CommandAbout {
  const entry: Omit<CommandAbout, "name"> = ABOUT[name];
  return { name, description: entry.description, ...(entry.argumentHint !== undefined ? { argumentHint: entry.argumentHint } : {}) };
}
