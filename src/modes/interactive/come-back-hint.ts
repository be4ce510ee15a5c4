/**
 * The line printed when the interactive mode ends: the command that opens this session again.
 * The id is the shortest prefix no other session pig knows of (this project's or another's)
 * starts with, as `pig sessions list` and the session line print it, so it works from any
 * directory. A session that never reached its file (no answer yet, `--no-session`, a folder pig
 * could not write) has nothing to come back to, and no line.
 */
import { sessionPrefixes } from "../../session/catalog.ts";

export interface ComeBackInput {
  /** The session's file, when it was written. */
  saved: { id: string } | undefined;
  /** The session directory of the run. */
  sessionDir: string | undefined;
  agentDir: string;
  /** `--session-dir` as given: a session there is found only when it is given again. */
  sessionDirFlag: string | undefined;
}

/** A word as a POSIX shell reads it back unchanged: bare when it is safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that comes back to the session, or undefined when there is none. */
export function comeBackCommand(input: ComeBackInput): string | undefined {
  const { saved, sessionDir } = input;
  if (!saved || !sessionDir) return undefined;
  const prefix = sessionPrefixes(sessionDir, input.agentDir, [saved.id]).get(saved.id) ?? saved.id;
  const dirFlag = input.sessionDirFlag !== undefined ? ` --session-dir ${shellWord(sessionDir)}` : "";
  return `pig${dirFlag} --session ${shellWord(prefix)}`;
}
