/** Identifiers as upstream Pi makes them: UUIDv7 session ids, 8-hex entry ids. */

/** A fresh entry id not in `taken`: the first 8 hex digits of a random UUID, as upstream. */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return crypto.randomUUID();
}

/** A time-ordered session id (UUIDv7). */
export function newSessionId(): string {
  return Bun.randomUUIDv7();
}

/** The file name of a session created at `time`: `<ISO time with : and . as ->_<id>.jsonl`. */
export function sessionFileName(time: Date, sessionId: string): string {
  return `${time.toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
