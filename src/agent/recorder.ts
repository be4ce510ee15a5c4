/**
 * Writing a run's messages to the session file. A file that changed under pig (cut short or
 * replaced) is left alone and the session goes on in a new file, with a warning. An entry the
 * file cannot take (disk full, I/O error, read-only) stops the run — nothing more it does could be kept — and is reported when
 * the run ends, with every entry that is not in the file; the entries stay in the session and
 * go out with the next write that succeeds. A session whose file cannot be made at all (its
 * folder cannot be written, its name is too long) goes on in memory with a warning instead, so
 * that the answer is not lost with it.
 */
import type { AgentMessage, CustomMessage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import { SessionFileChangedError, SessionWriteError } from "../session/write.ts";
import { SessionSaveError } from "./errors.ts";

export class SessionRecorder {
  /** Set when an entry of the current run could not be written. */
  private failure: unknown;
  /** The entry each recorded message became (upstream's `messageEntryId`). */
  private readonly entryIds = new WeakMap<AgentMessage, string>();

  constructor(
    private readonly store: () => SessionStore,
    /** Whether a run is going (outside one, a failure is thrown at once). */
    private readonly running: () => boolean,
    /** Stops the current run. */
    private readonly stopRun: () => void,
    /** Tells the user of a problem that did not stop anything. */
    private readonly warn: (text: string) => void,
  ) {}

  record(message: AgentMessage): void {
    const store = this.store();
    try {
      if (message.role === "custom") {
        const custom = message as CustomMessage;
        this.entryIds.set(message, store.appendCustomMessageEntry(custom.customType, custom.content as never, custom.display, custom.details));
      } else {
        this.entryIds.set(message, store.appendMessage(message));
      }
    } catch (caught) {
      let error = caught;
      if (error instanceof SessionFileChangedError) {
        // Someone cut the file short or put another in its place: keep the work in a new file.
        try {
          const moved = store.moveToNewFile();
          if (store.leafId !== null) this.entryIds.set(message, store.leafId);
          const gone = moved.lost > 0 ? `; ${moved.lost} entries that were only in the old file are not in it` : "";
          this.warn(`${error.message}. This session goes on in a new file, ${moved.path}, with everything pig still had of it${gone}; the old file is left as it is.`);
          return;
        } catch (moveError) {
          error = moveError;
        }
      }
      if (error instanceof SessionWriteError && !store.onDisk) {
        // The message is in the session (its leaf) but no file can hold it: go on without one.
        store.keepInMemory();
        if (store.leafId !== null) this.entryIds.set(message, store.leafId);
        this.warn(`Cannot save this session: ${error.message}. It goes on in memory only; nothing of it is saved.`);
        return;
      }
      // Outside a run (a `!` command while idle) the caller hears of it at once.
      if (!this.running()) throw error;
      this.failure ??= error;
      this.stopRun();
    }
  }

  /** The id of the entry `message` was recorded as (in the tree even when the write failed). */
  entryIdOf(message: AgentMessage): string | undefined {
    return this.entryIds.get(message);
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Forgets an earlier run's failure (a new run starts). */
  reset(): void {
    this.failure = undefined;
  }

  /** Throws the failure of the run that just ended, if there was one. */
  throwIfFailed(): void {
    if (this.failure === undefined) return;
    const error = this.failure;
    this.failure = undefined;
    const store = this.store();
    throw new SessionSaveError(store.path, (error as Error).message ?? String(error), store.unsaved, store.onDisk);
  }
}
