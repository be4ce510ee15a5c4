/** Why a prompt did not run, or stopped: errors every front end shows as they are. */

/** A prompt refused before anything ran (no model, no key, busy). */
export class PromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptError";
  }
}

/**
 * The session file could not take an entry (disk full, I/O error, read-only): the run was
 * stopped, since nothing more it did could be kept. Names the file and every entry not in it.
 */
export class SessionSaveError extends Error {
  constructor(
    readonly path: string | undefined,
    readonly reason: string,
    readonly unsaved: readonly { id: string; type: string; role?: string }[],
    /** Whether the file exists (false: its first write failed). */
    onDisk = true,
  ) {
    const what = unsaved.map((e) => (e.type === "message" ? `${e.role ?? "a"} message ${e.id}` : `${e.type} entry ${e.id}`));
    const rest = onDisk ? `(everything before ${what.length === 1 ? "it" : "them"} is)` : "(the file could not be made)";
    super(`${reason}. The run was stopped; not in the file: ${what.length > 0 ? what.join(", ") : "nothing"} ${rest}.`);
    this.name = "SessionSaveError";
  }
}
