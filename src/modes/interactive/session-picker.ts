/**
 * The session picker of `/resume` and `pig --resume`: this project's sessions (or, toggled, every
 * project's), newest first, each by its title, and a way to delete one — to the trash when a
 * `trash` command exists, otherwise permanently, which needs a second confirmation.
 */
import { readFileSync, unlinkSync } from "node:fs";
import { listAllSessions, listSessions, type SessionSummary } from "../../session/catalog.ts";
import type { InteractiveHost, PickOption } from "./host.ts";
import { formatAge, matchesWords, messageOf, oneLine } from "./commands/format.ts";
import { textOf } from "../../export/html-entries.ts";

export interface ResumeDeps {
  /** Finds an executable on PATH (Bun.which). */
  which(command: string): string | null;
  /** Runs a command to completion; its exit code. */
  run(argv: string[]): Promise<number>;
  now(): Date;
}

export const defaultResumeDeps: ResumeDeps = {
  which: (command) => Bun.which(command),
  async run(argv) {
    const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    return proc.exited;
  },
  now: () => new Date(),
};

/** What the picker needs of the interactive mode: its dialogs, its messages and where sessions are. */
export type PickerHost = Pick<InteractiveHost, "pick" | "confirm" | "info" | "warn" | "error" | "agentDir" | "sessionDir">;

type Choice = { kind: "open"; session: SessionSummary } | { kind: "scope" } | { kind: "delete" };

export function sessionTitle(session: SessionSummary): string {
  return oneLine(session.name ?? session.firstMessage, 60);
}

export function sessionHint(session: SessionSummary, now: Date, options: { showCwd: boolean; current: boolean }): string {
  const parts = [`${session.messageCount} msg${session.messageCount === 1 ? "" : "s"}`, formatAge(session.modified, now)];
  if (options.showCwd && session.cwd) parts.push(session.cwd);
  if (options.current) parts.push("current");
  return parts.join(" · ");
}

/**
 * Whether a session matches every word of a search: its title, first message and folder, else
 * anything said in it (the file is read only when the summary does not match).
 */
function matchesSession(query: string, session: SessionSummary): boolean {
  if (matchesWords(query, `${session.name ?? ""} ${session.firstMessage} ${session.cwd}`)) return true;
  try {
    return matchesWords(query, conversationText(readFileSync(session.path, "utf8")));
  } catch {
    return false;
  }
}

/** What was said in a session file: the text of its messages and shell commands, one per line. */
function conversationText(file: string): string {
  const parts: string[] = [];
  for (const line of file.split("\n")) {
    if (!line.includes('"message"')) continue;
    let entry: { type?: unknown; message?: { content?: unknown; command?: unknown; output?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const message = entry.type === "message" ? entry.message : undefined;
    if (!message) continue;
    parts.push(textOf(message.content));
    if (typeof message.command === "string") parts.push(message.command);
    if (typeof message.output === "string") parts.push(message.output);
  }
  return parts.join("\n");
}

/** Moves the file to the trash, or deletes it after a second, explicit confirmation. */
async function deleteSession(host: PickerHost, session: SessionSummary, deps: ResumeDeps): Promise<void> {
  const title = sessionTitle(session);
  if (!(await host.confirm(`Delete session "${title}"?`, false))) return;
  const trash = deps.which("trash");
  if (trash) {
    const code = await deps.run([trash, session.path]);
    if (code === 0) host.info(`Moved to the trash: ${session.path}`);
    else host.error(`trash failed (exit ${code}); ${session.path} was not deleted.`);
    return;
  }
  if (!(await host.confirm(`No "trash" command found: delete ${session.path} permanently? This cannot be undone.`, false))) return;
  try {
    unlinkSync(session.path);
    host.info(`Deleted ${session.path}`);
  } catch (error) {
    host.error(`Could not delete ${session.path}: ${messageOf(error)}`);
  }
}

/**
 * Lets the user choose a session (matching `query`, when given); undefined when the picker was
 * cancelled or there was nothing to choose (a line says so). `currentPath` is the session open
 * now: it is marked, and cannot be deleted.
 */
export async function chooseSession(
  host: PickerHost,
  query: string,
  currentPath: string | undefined,
  deps: ResumeDeps = defaultResumeDeps,
): Promise<SessionSummary | undefined> {
  // With --no-session there is no project directory: every project's sessions it is.
  let allProjects = host.sessionDir === undefined;
  for (;;) {
    const listed = allProjects || !host.sessionDir ? listAllSessions(host.agentDir) : listSessions(host.sessionDir);
    const sessions = query ? listed.filter((s) => matchesSession(query, s)) : listed;
    const now = deps.now();
    const hint = (session: SessionSummary) => sessionHint(session, now, { showCwd: allProjects, current: session.path === currentPath });
    const options: PickOption<Choice>[] = sessions.map((session) => ({ value: { kind: "open", session }, label: sessionTitle(session), hint: hint(session) }));
    if (host.sessionDir) {
      options.push({ value: { kind: "scope" }, label: allProjects ? "↺ Show this project only" : "↺ Show all projects" });
    }
    if (sessions.length > 0) options.push({ value: { kind: "delete" }, label: "✕ Delete a session…" });
    const where = allProjects ? "all projects" : "this project";
    if (sessions.length === 0) host.info(query ? `No sessions of ${where} match "${query}".` : `No sessions in ${where} yet.`);
    if (options.length === 0) return undefined;
    const choice = await host.pick(`Resume a session (${where})`, options, { search: true });
    if (!choice) return undefined;
    if (choice.kind === "open") return choice.session;
    if (choice.kind === "scope") {
      allProjects = !allProjects;
      continue;
    }
    const target = await host.pick(
      "Delete which session?",
      sessions.map((session) => ({ value: session, label: sessionTitle(session), hint: hint(session) })),
      { search: true },
    );
    if (!target) continue;
    if (target.path === currentPath) host.warn("That is the session you are in; switch to another one first.");
    else await deleteSession(host, target, deps);
  }
}
