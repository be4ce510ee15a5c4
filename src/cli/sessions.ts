/** `pig sessions …`: a scriptable window into the session store. */
import { parseArgs } from "node:util";
import { listAllSessions, listSessions, sessionPrefixes, type SessionSummary } from "../session/catalog.ts";
import { findSession as resolveOne } from "../runtime/find-session.ts";
import { minuteOf, oneLine } from "../runtime/session-text.ts";
import { loadSettings } from "../resources/settings.ts";
import { agentDir, resolveSessionDir } from "../session/paths.ts";
import { SessionStore } from "../session/store.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";
import { SESSIONS_COMMAND_HELP, SESSIONS_HELP } from "./help.ts";
import { closestName } from "../util/closest.ts";
import { Output } from "./output.ts";
import { contextEditNote, writeContextJson, writeContextText } from "./show-context.ts";
import { writeTree } from "./show-tree.ts";
import { writeTreeJson } from "./show-tree-json.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";

interface SessionsArgs {
  command: string | undefined;
  operands: string[];
  all: boolean;
  json: boolean;
  sessionDir: string | undefined;
}

/** `--help` anywhere: the named command's help, else the list of commands. */
function helpText(argv: string[]): string | undefined {
  if (!argv.some((arg) => arg === "--help" || arg === "-h")) return undefined;
  const command = argv.find((arg) => !arg.startsWith("-"));
  return (command && SESSIONS_COMMAND_HELP[command]) || SESSIONS_HELP;
}

const HELP = "pig sessions --help";

function parse(argv: string[]): SessionsArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        all: { type: "boolean" },
        json: { type: "boolean" },
        "session-dir": { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(`sessions: ${tidyParseError(error)}`, HELP);
  }
  const [command, ...operands] = parsed.positionals;
  return {
    command,
    operands,
    all: parsed.values.all ?? false,
    json: parsed.values.json ?? false,
    sessionDir: parsed.values["session-dir"],
  };
}

const OPERANDS: Record<string, { min: number; max: number; usage: string }> = {
  list: { min: 0, max: 0, usage: "list [--all] [--json]" },
  show: { min: 1, max: 1, usage: "show <session> [--json]" },
  tree: { min: 1, max: 1, usage: "tree <session> [--json]" },
  name: { min: 2, max: 2, usage: "name <session> <name>" },
  label: { min: 2, max: 3, usage: "label <session> <entryId> [label]" },
};

export async function runSessions(argv: string[]): Promise<number> {
  const help = helpText(argv);
  if (help) {
    writeStdout(help);
    return 0;
  }
  const args = parse(argv);
  if (!args.command) throw new UsageError("sessions: missing command (list, show, tree, name or label)", HELP);
  const spec = OPERANDS[args.command];
  if (!spec) {
    const near = closestName(args.command, Object.keys(OPERANDS));
    throw new UsageError(`sessions: unknown command '${args.command}'${near ? ` (did you mean ${near}?)` : ""}`, HELP);
  }
  const commandHelp = `pig sessions ${args.command} --help`;
  if (args.operands.length < spec.min || args.operands.length > spec.max) {
    throw new UsageError(`sessions: usage: pig sessions ${spec.usage}`, commandHelp);
  }
  if (args.all && args.command !== "list") throw new UsageError("sessions: --all goes with list", commandHelp);
  if (args.json && args.command !== "list" && args.command !== "show" && args.command !== "tree") {
    throw new UsageError(`sessions: --json goes with list, show and tree, not ${args.command}`, commandHelp);
  }
  const cwd = process.cwd();
  // The global `sessionDir` setting counts here as it does for `pig` itself.
  const settings = loadSettings(agentDir(), cwd, false).settings;
  const dir = resolveSessionDir(cwd, { flag: args.sessionDir, setting: settings.sessionDir });
  const out = new Output();
  try {
    switch (args.command) {
      case "list":
        writeList(out, args.all ? listAllSessions(agentDir()) : listSessions(dir), args.json, dir);
        break;
      case "show":
        withStore(args.operands[0]!, cwd, dir, (store) => {
          if (!args.json) return writeContextText(out, store);
          // The JSON is the context alone; the note goes where a script's reader will see it.
          const note = contextEditNote(store);
          if (note) writeStderr(`pig: note: ${note}\n`);
          writeContextJson(out, store);
        });
        break;
      case "tree":
        withStore(args.operands[0]!, cwd, dir, (store) => (args.json ? writeTreeJson(out, store) : writeTree(out, store)));
        break;
      case "name":
        appendTo(args.operands[0]!, cwd, dir, (store) => store.appendSessionInfo(args.operands[1]!));
        break;
      case "label":
        appendTo(args.operands[0]!, cwd, dir, (store) => {
          const [, entryId, label] = args.operands as [string, string, string | undefined];
          if (!store.tree.has(entryId)) throw new CliError(`no entry ${entryId} in ${store.path}`);
          store.appendLabelChange(entryId, label);
        });
        break;
    }
  } finally {
    await out.end();
  }
  return 0;
}

function findSession(arg: string, cwd: string, dir: string): string {
  return resolveOne(arg, cwd, dir, agentDir()).path;
}

function withStore(arg: string, cwd: string, dir: string, use: (store: SessionStore) => void): void {
  const store = SessionStore.open(findSession(arg, cwd, dir));
  try {
    for (const diagnostic of store.diagnostics) writeStderr(`pig: warning: ${diagnostic.message}\n`);
    const known = store.diagnostics.length;
    use(store);
    // Lines that turned out unreadable only when they were read back.
    for (const diagnostic of store.diagnostics.slice(known)) writeStderr(`pig: warning: ${diagnostic.message}\n`);
  } finally {
    store.close();
  }
}

function appendTo(arg: string, cwd: string, dir: string, change: (store: SessionStore) => void): void {
  const store = SessionStore.open(findSession(arg, cwd, dir), { write: true });
  try {
    change(store);
    // An explicit request: write now, even for a session with no answer yet.
    store.flush(true);
  } finally {
    store.close();
  }
}

function summaryJson(s: SessionSummary): object {
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    name: s.name ?? null,
    firstMessage: s.firstMessage,
    messageCount: s.messageCount,
    created: s.created.toISOString(),
    modified: s.modified.toISOString(),
  };
}

function writeList(out: Output, sessions: SessionSummary[], json: boolean, dir: string): void {
  if (json) {
    out.line(JSON.stringify(sessions.map(summaryJson), null, 2));
    return;
  }
  if (sessions.length === 0) {
    out.shown("No sessions.");
    return;
  }
  // Each id as short as it can be while no other session, here or in another project, shares it.
  const prefixes = sessionPrefixes(dir, agentDir(), sessions.map((s) => s.id));
  for (const s of sessions) {
    const when = minuteOf(s.modified);
    const title = s.name ? `${s.name} — ${s.firstMessage}` : s.firstMessage;
    out.shown(`${when}  ${prefixes.get(s.id) ?? s.id}  ${String(s.messageCount).padStart(4)} msgs  ${oneLine(title, 72)}`);
    out.shown(`  ${s.path}`);
  }
}
