/** `--session <arg>` and `pig sessions <command> <arg>`: one session file, or a clear refusal. */
import { resolveSession, type SessionMatch, type SessionSummary } from "../session/catalog.ts";
import { UserError } from "./errors.ts";
import { minuteOf, oneLine } from "./session-text.ts";

type Found = Exclude<SessionMatch, { kind: "ambiguous" } | { kind: "none" }>;

function candidateLines(s: SessionSummary): string {
  const title = s.name ? `"${oneLine(s.name, 40)}"` : oneLine(s.firstMessage, 50);
  return `  ${s.id}  ${minuteOf(s.modified)}  ${title}\n      ${s.path}`;
}

/** The message for a prefix that matches several session files (exit code 2). */
export function ambiguousMessage(arg: string, candidates: readonly SessionSummary[], sameId = false): string {
  const lead = sameId
    ? `Session '${arg}' is in ${candidates.length} files (copies of one session, none in this project); give the file's path:`
    : `Session id prefix '${arg}' matches ${candidates.length} sessions; give more of the id, or the file's path:`;
  return [lead, ...candidates.map(candidateLines)].join("\n");
}

/** Resolves `arg` to one session, or throws: none (exit 1), several (exit 2, listing them). */
export function findSession(arg: string, cwd: string, dir: string, agent: string): Found {
  const match = resolveSession(arg, cwd, dir, agent);
  if (match.kind === "none") throw new UserError(`No session found matching '${arg}'`);
  if (match.kind === "ambiguous") throw new UserError(ambiguousMessage(arg, match.candidates, match.sameId), 2);
  return match;
}
