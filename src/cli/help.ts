/** Usage texts. They list only what this build of pig can do, and the flags extensions add. */
import type { RegisteredFlag } from "../extensions/flags.ts";
import { binaryIdentity } from "../binary-identity.ts";
import { identityLine } from "./binary-lines.ts";

export const MAIN_HELP = `pig - a terminal coding agent (compatible with Pi's sessions and events)

Usage:
  pig [options] [@files...] [messages...]
                                   Interactive mode in the terminal
  pig "message"                    Start interactive mode with a first message
  pig -c                           Continue the most recent session of this project
  pig -r, --resume                 Choose a session to continue from a list
  pig -p [options] [@files...] [messages...]
                                   Answer once and exit (print mode)
  pig --mode json [options] [@files...] [messages...]
  pig sessions <command> [options] Look into saved sessions (pig sessions --help)
  pig piglets list [--json]        The Piglets (named agents) there are
  pig mcp list [--json]            Connect the MCP servers of mcp.json and list them (--help)
  pig login <provider>, pig logout <provider>
                                   Sign in with a subscription, or remove a login (--help)
  pig mcp login <server>, pig mcp logout <server>
                                   Sign in to an OAuth MCP server, or delete its sign-in (--help)
  pig extension check <path>       Check that an extension keeps pig-ext/1 (--help)
  pig build -e <ext> -o <out>      Build a Piglet Binary: pig with extensions linked in (--help)
  pig update [--to X.Y.Z]          Update pig itself to the newest release or to X.Y.Z
                                   (--check only looks; packages: --extensions; --help)

Modes:
  -p, --print                      Run the prompt, print the final answer, exit
      --mode <text|json|rpc>       text: like -p; json: the session header, then every
                                   event as one JSON line; rpc: commands on stdin, responses
                                   and events on stdout (see docs/rpc.md)
  Piped stdin is added to the first prompt (and implies print mode).

Piglet:
      --piglet <name>              Run as a Piglet: its model, thinking, tools, extensions,
                                   skills, templates and system prompt (flags given win);
                                   see docs/piglets.md

Model:
      --provider <name>            Provider (anthropic, openai, google, groq, ...)
      --model <pattern>            Model id, provider/id, glob or part of a name;
                                   a :<level> suffix sets the thinking level
      --thinking <level>           off, minimal, low, medium, high, xhigh, max
      --models <a,b,...>           Models Ctrl+P cycles through (patterns, globs)
      --api-key <key>              Key for the chosen model's provider (this run only)
      --list-models [search]       List models that have a key configured

Session:
  -c, --continue                   Continue the most recent session of this project
  -r, --resume                     Choose the session to continue in a picker (interactive
                                   mode only; cancelling exits)
      --session <path|id>          Open a session file, or find one by id prefix
      --session-dir <dir>          Keep sessions in <dir>
      --no-session                 Do not write a session file
  -n, --name <name>                Name the session (as /name does) before anything runs

Prompt and tools:
      --system-prompt <text|file>  Replace the base system prompt
      --append-system-prompt <text|file>
                                   Add to the system prompt (repeatable)
  -t, --tools <a,b,...>            Tools to enable (read, bash, edit, write, grep, find, ls)
      --exclude-tools <a,b,...>    Tools to leave out
  -nt, --no-tools                  No tools at all
      --no-mcp                     Connect no MCP server (mcp.json and extensions' servers)
  -e, --extension <path>           Load an extension (file, directory or manifest; repeatable)
  -ne, --no-extensions             Load only the extensions given with -e

Resources:
      --skill <path>               Load a skill (file or directory; repeatable)
  -ns, --no-skills                 Only skills given with --skill
      --prompt-template <path>     Load prompt templates (file or directory; repeatable)
  -np, --no-prompt-templates       Only templates given with --prompt-template
      --theme <path>               Load theme files (file or directory; repeatable)
      --no-themes                  Only themes given with --theme
  -nc, --no-context-files          Do not read AGENTS.md / CLAUDE.md
      --trust / --no-trust         Use (or skip) this project's .pig/ resources for this run
      --verbose                    Print the startup report (what was loaded) on stderr

  -h, --help                       Show this help
  -v, --version                    Print the version

@file attaches a file: its text, or the image itself (not a directory: name the
files inside it). A missing file stops pig before anything is sent.

Commands:
  sessions list [--all] [--json]   List sessions (this project, or every project)
  sessions show <session> [--json] The context of a session's active branch
  sessions tree <session>          A session's entry tree
  sessions name <session> <name>   Name a session
  sessions label <session> <entryId> [label]
                                   Label an entry (no label: clear it)
  Run 'pig sessions --help' for details.
  piglets list [--json]            Piglets: name, description, scope and file

Environment:
  PIG_CODING_AGENT_DIR             Agent directory (default ~/.pig/agent)
  PIG_CODING_AGENT_SESSION_DIR     Session directory (default <agent dir>/sessions/--<cwd>--)
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, GROQ_API_KEY, CEREBRAS_API_KEY,
  XAI_API_KEY, MISTRAL_API_KEY, DEEPSEEK_API_KEY, OPENROUTER_API_KEY
                                   Provider keys (or auth.json / models.json)
`;

/**
 * The flags extensions registered, under their own heading, each with the extension it came
 * from; "" when there are none.
 */
export function extensionFlagsHelp(flags: readonly RegisteredFlag[]): string {
  if (flags.length === 0) return "";
  const lines = ["Extension flags:"];
  for (const flag of flags) {
    const usage = `      --${flag.name}${flag.type === "string" ? " <value>" : ""}`;
    const about = [flag.description, flag.default !== undefined ? `(default: ${String(flag.default)})` : undefined].filter(Boolean).join(" ");
    const from = `from ${flag.extensionPath}`;
    if (usage.length < 35 && about) lines.push(`${usage.padEnd(35)}${about}`, `${"".padEnd(35)}${from}`);
    else lines.push(usage, `${"".padEnd(35)}${about ? `${about} ` : ""}${from}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `pig --help`: pig's own usage, then the extensions' flags (before the subcommands). */
export function mainHelp(flags: readonly RegisteredFlag[] = []): string {
  const extra = extensionFlagsHelp(flags);
  const at = MAIN_HELP.indexOf("\n@file attaches");
  const body = extra ? `${MAIN_HELP.slice(0, at)}\n${extra}${MAIN_HELP.slice(at)}` : MAIN_HELP;
  // A Piglet Binary says what it is first.
  const identity = identityLine();
  const piglet = binaryIdentity().defaultPiglet;
  return identity ? `${identity}${piglet ? ` (default Piglet: ${piglet})` : ""}\n\n${body}` : body;
}

export const SESSIONS_HELP = `Usage: pig sessions <command> [options]

Commands:
  list [--all] [--json]                    Sessions of this project, most recent first;
                                           --all: of every project
  show <session> [--json]                  The context of the active branch, as the model
                                           would get it; --json: {messages, thinkingLevel, model}
  tree <session> [--json]                  The entry tree, with roles, labels and the leaf;
                                           --json: {id, leafId, activePath, roots, entries}
  name <session> <name>                    Append a session name (an empty name clears it)
  label <session> <entryId> [label]        Append a label for an entry (no label: clear it)

Options:
  --session-dir <dir>    Look for sessions in <dir> instead of this project's directory
  --json                 Machine-readable output (list, show, tree)
  -h, --help             Show this help; 'pig sessions <command> --help' shows one command's

<session> is a path to a .jsonl file or a prefix of a session id; a prefix that
more than one session starts with is refused (exit code 2) and the sessions it
matches are listed. list prints each id as short as it can be while still unique.
Read-only commands (list, show, tree) never modify a file. name and label append
one line; a v1 or v2 file (written by an old Pi) is first rewritten as v3, through
a new file renamed into place, and then the line is appended.
Errors go to stderr with exit code 1, usage errors with exit code 2.
`;

/** `pig sessions <command> --help`: one command's usage, what it prints, and its options. */
export const SESSIONS_COMMAND_HELP: Record<string, string> = {
  list: `Usage: pig sessions list [--all] [--json] [--session-dir <dir>]

The sessions of this project, the one written last first: when, the id (as short as it
can be while unique), the number of messages, and the title (the session's name, else
the words of its first message), then the file.

Options:
  --all                  Every project's sessions
  --json                 One JSON array of {path, id, cwd, name, firstMessage,
                         messageCount, created, modified}
  --session-dir <dir>    Look in <dir> instead of this project's directory
`,
  show: `Usage: pig sessions show <session> [--json] [--session-dir <dir>]

The context of the session's active branch, as the model would get it.

Options:
  --json                 {messages, thinkingLevel, model}
  --session-dir <dir>    Look for <session> in <dir> too

<session> is a path to a .jsonl file or a prefix of a session id.
`,
  tree: `Usage: pig sessions tree <session> [--json] [--session-dir <dir>]

The session's entry tree, with roles, labels and the leaf.

Options:
  --json                 {id, path, name, leafId, activePath, roots, entries}: every
                         entry once, in the tree's order, as {id, parentId, type, role?,
                         timestamp, line, preview, label?, active, children, problem?}
                         (docs/sessions.md)
  --session-dir <dir>    Look for <session> in <dir> too

<session> is a path to a .jsonl file or a prefix of a session id.
`,
  name: `Usage: pig sessions name <session> <name> [--session-dir <dir>]

Names the session (appends one line; an empty name clears it).

<session> is a path to a .jsonl file or a prefix of a session id.
`,
  label: `Usage: pig sessions label <session> <entryId> [label] [--session-dir <dir>]

Labels an entry of the session (appends one line; no label clears it). The entry ids
are in 'pig sessions tree <session>'.

<session> is a path to a .jsonl file or a prefix of a session id.
`,
};
