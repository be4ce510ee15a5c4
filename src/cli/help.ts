/** Usage texts. They list only what this build of pig can do. */

export const MAIN_HELP = `pig - a terminal coding agent (session format compatible with Pi)

Usage:
  pig [options]
  pig sessions <command> [options]

Options:
  -h, --help                 Show this help
  -v, --version              Print the version

Commands:
  sessions list              List the sessions of this project (--all: every project)
  sessions show <session>    Print the context of a session's active branch
  sessions tree <session>    Print a session's entry tree
  sessions name <session> <name>
                             Name a session
  sessions label <session> <entryId> [label]
                             Label an entry (no label: clear it)

  <session> is a session file path or a session id prefix.
  Run 'pig sessions --help' for their options.

Environment:
  PIG_CODING_AGENT_DIR           Agent directory (default ~/.pig/agent)
  PIG_CODING_AGENT_SESSION_DIR   Session directory (default <agent dir>/sessions/--<cwd>--)
`;

export const SESSIONS_HELP = `Usage: pig sessions <command> [options]

Commands:
  list [--all] [--json]                    Sessions of this project, most recent first;
                                           --all: of every project
  show <session> [--json]                  The context of the active branch, as the model
                                           would get it; --json: {messages, thinkingLevel, model}
  tree <session>                           The entry tree, with roles, labels and the leaf
  name <session> <name>                    Append a session name (an empty name clears it)
  label <session> <entryId> [label]        Append a label for an entry (no label: clear it)

Options:
  --session-dir <dir>    Look for sessions in <dir> instead of this project's directory
  --json                 Machine-readable output (list, show)
  -h, --help             Show this help

<session> is a path to a .jsonl file or a prefix of a session id. Read-only commands
(list, show, tree) never modify a file; name and label only append one line.
Errors go to stderr with exit code 1.
`;
