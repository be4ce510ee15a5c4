/**
 * The file behind a session, once there is one: its name, the lock that makes this process its
 * one writer (see lock.ts), and what pig last knew of it (its size, its last byte, which file it
 * is). The store holds entries; this holds the bytes and the handles, so that every read and
 * every append goes through the checks that tell the file pig loaded or made from one that was
 * cut short or put in its place meanwhile.
 *
 * A file comes to be written only locked: a new one is locked before it has its name, and an
 * existing one is locked before it is read, then migrated on disk under that lock if it is legacy.
 */
import { closeSync, fstatSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { decodeUtf8, readAtLeast, readRange } from "./lines.ts";
import { loadSessionFile, SessionFileError, type LoadedFile } from "./load.ts";
import { acquireLock, lockNewFile, type SessionLock } from "./lock.ts";
import type { EntryRecord } from "./records.ts";
import { openRegularFile } from "./regular-file.ts";
import {
  appendLines, createFileWithLines, fileIdentity, removeStaleTemps, replaceFile, SessionFileChangedError, SessionWriteError, type AppendState,
} from "./write.ts";

/** How much of the file one read brings in when lines are read back (see `SessionFile.read`). */
const READ_WINDOW = 1 << 20;

/** Where one line is in the file: its bytes, without the newline. */
export interface LineRange {
  readonly offset: number;
  readonly length: number;
}

export class SessionFile {
  private readFd: number | undefined;
  /** The bytes of the file read last, from `offset` (see `read`). */
  private window: { offset: number; bytes: Buffer } | undefined;

  private constructor(
    readonly path: string,
    private lock: SessionLock | undefined,
    private readonly appendState: AppendState,
    /** Where the header line is, when it is in the file as the session has it. */
    private readonly headerRange: LineRange | undefined,
  ) {}

  /** The file `loaded` was read from; with `lock`, this process writes it. */
  static of(loaded: LoadedFile, lock?: SessionLock): SessionFile {
    const source = loaded.headerSource;
    const headerRange = source.kind === "file" ? { offset: source.offset, length: source.length } : undefined;
    return new SessionFile(loaded.path, lock, { size: loaded.size, endsWithNewline: loaded.endsWithNewline, identity: loaded.identity }, headerRange);
  }

  /** Loads an existing file to write it: locked first, a legacy file then migrated on disk. */
  static openToWrite(path: string): { file: SessionFile; loaded: LoadedFile } {
    let lock = acquireLock(path);
    try {
      // A migration cut short by a crash left its temp file: this process holds the lock now.
      removeStaleTemps(dirname(path), path);
      let loaded = loadSessionFile(path);
      if (loaded.migrated) {
        lock = writeMigrated(loaded, lock);
        loaded = loadSessionFile(path);
      }
      return { file: SessionFile.of(loaded, lock), loaded };
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * The file of a new session, made with `lines` (the header first) as `create` makes it, its
   * folder made first if need be. An existing file of that name is never written over: the
   * session would take a stranger's entries for its own.
   */
  static createWithFolder(path: string, lines: readonly string[]): { file: SessionFile; offsets: number[] } {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new SessionWriteError(path, error);
    }
    removeStaleTemps(dirname(path));
    try {
      return SessionFile.create(path, lines);
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      throw new SessionFileError(path, "unreadable", `Refusing to write a new session over the existing file ${path}`);
    }
  }

  /**
   * Makes `path` holding `lines` (the header first), whole or not at all, and returns each line's
   * offset. The file is locked before it has its name, so no other writer can find it unlocked.
   */
  static create(path: string, lines: readonly string[]): { file: SessionFile; offsets: number[] } {
    let claimed: SessionLock | undefined;
    try {
      const created = createFileWithLines(path, lines, (temp) => (claimed = lockNewFile(temp, path)));
      const appendState = { size: created.size, endsWithNewline: true, identity: created.identity };
      const headerRange = { offset: created.offsets[0]!, length: Buffer.byteLength(lines[0]!) };
      return { file: new SessionFile(path, claimed, appendState, headerRange), offsets: created.offsets };
    } catch (error) {
      claimed?.release();
      throw error;
    }
  }

  /**
   * The line at `range` of the file pig loaded or made, whatever has become of its name.
   * Reading a branch reads its lines in file order, one after another: one read fills a window
   * of the file that the next lines come from, so a long branch costs a read per window rather
   * than a system call per line. Bytes are only ever added at the end, and an append drops the
   * window anyway.
   */
  read(range: LineRange): string {
    const end = range.offset + range.length;
    const window = this.window;
    if (window !== undefined && range.offset >= window.offset && end <= window.offset + window.bytes.length) {
      return decodeUtf8(window.bytes, range.offset - window.offset, end - window.offset);
    }
    // Never past the end as the session knows it: what lies beyond is not pig's yet. A file cut
    // short under pig fails the line asked for as before, not the lines after it.
    const length = Math.max(range.length, Math.min(READ_WINDOW, this.appendState.size - range.offset));
    const bytes = readAtLeast(this.readDescriptor(), range.offset, length, range.length);
    this.window = { offset: range.offset, bytes };
    return decodeUtf8(bytes, 0, range.length);
  }

  /**
   * A descriptor of the file: the lock's own while it is held (it stays the file pig loaded,
   * whatever happens to its name), else one opened and checked to be that file.
   */
  private readDescriptor(): number {
    if (this.lock?.fd !== undefined) return this.lock.fd;
    if (this.readFd === undefined) {
      const fd = openRegularFile(this.path, "read");
      // Offsets into another file than the one loaded would read someone else's bytes.
      if (this.appendState.identity !== undefined && fileIdentity(fstatSync(fd)) !== this.appendState.identity) {
        closeSync(fd);
        throw new SessionFileChangedError(this.path, "another file has taken its name");
      }
      this.readFd = fd;
    }
    return this.readFd;
  }

  /** Appends `lines` as whole lines and returns their offsets (write.ts `appendLines`). */
  append(lines: readonly string[]): number[] {
    this.window = undefined;
    return appendLines(this.path, this.appendState, lines);
  }

  /**
   * The bytes of the file that hold the header and, right after it, the first `count` of
   * `records`, one line each with nothing between them (no blank, malformed or torn line): a
   * reader can take those lines from the file itself. Undefined when the header is not in the
   * file as the session has it.
   */
  flushedLines(records: readonly EntryRecord[]): { offset: number; length: number; count: number } | undefined {
    const header = this.headerRange;
    if (!header) return undefined;
    let end = header.offset + header.length + 1;
    if (end > this.appendState.size) return undefined;
    let count = 0;
    for (const record of records) {
      const source = record.source;
      if (source.kind !== "file" || source.offset !== end || source.offset + source.length + 1 > this.appendState.size) break;
      end = source.offset + source.length + 1;
      count++;
    }
    return { offset: header.offset, length: end - header.offset, count };
  }

  /** Lets go of the lock and any open descriptor. The file can still be read (opened anew and checked). */
  close(): void {
    this.window = undefined;
    if (this.readFd !== undefined) closeSync(this.readFd);
    this.readFd = undefined;
    this.lock?.release();
    this.lock = undefined;
  }
}

/** Rewrites a legacy file as migrated; returns the lock of the new file, which replaces `lock`. */
function writeMigrated(loaded: LoadedFile, lock: SessionLock): SessionLock {
  const fd = openRegularFile(loaded.path, "read");
  let replacement: SessionLock | undefined;
  try {
    const parts: Uint8Array[] = [];
    loaded.migrated!.forEach((source, index) => {
      parts.push(source.kind === "text" ? Buffer.from(source.text) : readRange(fd, source.offset, source.length));
      if (index < loaded.migrated!.length - 1 || loaded.endsWithNewline) parts.push(Buffer.from("\n"));
    });
    // The new file is locked before it takes the name: a second pig finds it locked, never free.
    replaceFile(loaded.path, Buffer.concat(parts), (temp) => (replacement = lockNewFile(temp, loaded.path)));
  } catch (error) {
    replacement?.release();
    throw error;
  } finally {
    closeSync(fd);
  }
  lock.release();
  return replacement!;
}
