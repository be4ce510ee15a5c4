/**
 * A session: its header, its tree of entries, the active leaf, and the file behind it.
 *
 * Entries are appended, never changed. Writing is lazy as upstream (nothing reaches disk until
 * the session holds an assistant message), but pig tracks per entry what is on disk, so an
 * entry is written exactly once. A file is written by one process at a time (see lock.ts). The
 * typed `append…` methods are in appends.ts; every one of them ends in `append` here.
 */
import { closeSync, fstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { SessionAppends } from "./appends.ts";
import { planContext, resolvePlan, type ContextPlan, type SessionContext } from "./context.ts";
import * as make from "./entries.ts";
import type { SessionEntry, SessionHeader } from "./format.ts";
import { newSessionId, sessionFileName } from "./ids.ts";
import { decodeUtf8, readRange } from "./lines.ts";
import { loadSessionFile, SessionFileError, type LoadedFile } from "./load.ts";
import { acquireLock, lockNewFile, type SessionLock } from "./lock.ts";
import { openRegularFile } from "./regular-file.ts";
import { keepsValue, type EntryRecord, type LineSource, type LoadDiagnostic } from "./records.ts";
import { SessionTree } from "./tree.ts";
import {
  appendLines, createFileWithLines, fileIdentity, removeStaleTemps, replaceFile, SessionFileChangedError, SessionWriteError, type AppendState,
} from "./write.ts";
import { relocatedLines } from "./relocate.ts";

export interface NewSessionOptions {
  cwd: string;
  /** Directory the file goes in; omit (and omit `path`) for a session that is never written. */
  dir?: string;
  /** The exact file to write (e.g. `--session new.jsonl`); overrides `dir`. */
  path?: string;
  parentSession?: string;
  now?: Date;
}

export interface OpenOptions {
  /** Take the write lock now (and migrate a legacy file). Without it the store is read-only. */
  write?: boolean;
}

/** An entry placed in a session as it is (a copy keeps its line): what the tree needs of it. */
export type AdoptedEntry = {
  type: string;
  id: string;
  parentId?: string | null | undefined;
  timestamp: string;
  role?: string | undefined;
  value?: SessionEntry | undefined;
  /** A copy of an entry the source could not use keeps it out of the copy's context too. */
  invalid?: true | undefined;
};

export class SessionStore extends SessionAppends {
  readonly tree: SessionTree;
  readonly diagnostics: LoadDiagnostic[];
  private leaf: string | null;
  private readonly pending: EntryRecord[] = [];
  private readonly placedListeners = new Set<(record: EntryRecord) => void>();
  private headerPending: boolean;
  private hasAssistant: boolean;
  private lock: SessionLock | undefined;
  private readFd: number | undefined;
  private readonly appendState: AppendState;
  /** Where the header line is in the file, once it is there as `headerSource` has it. */
  private headerOnDisk: { offset: number; length: number } | undefined;

  private constructor(
    private headerValue: SessionHeader,
    private headerSource: LineSource,
    private pathValue: string | undefined,
    loaded: LoadedFile | undefined,
    private writable: boolean,
  ) {
    super();
    const path = pathValue;
    this.tree = new SessionTree(loaded?.records ?? []);
    // What the loader found line by line, and the links the tree found damaged, in line order.
    const links = this.tree.linkProblems.map((p) => ({ line: p.line, kind: p.kind, message: `${path}:${p.line}: ${p.message}` }));
    this.diagnostics = [...(loaded?.diagnostics ?? []), ...links].sort((a, b) => a.line - b.line);
    this.leaf = this.tree.last?.id ?? null;
    this.headerPending = loaded === undefined;
    this.hasAssistant = this.tree.records.some((r) => r.type === "message" && r.role === "assistant");
    this.appendState = { size: loaded?.size ?? 0, endsWithNewline: loaded?.endsWithNewline ?? true, ...(loaded ? { identity: loaded.identity } : {}) };
    if (headerSource.kind === "file") this.headerOnDisk = { offset: headerSource.offset, length: headerSource.length };
  }

  /** A new, empty session. With `dir`, it is written to `<dir>/<time>_<id>.jsonl` once it has an answer. */
  static create(options: NewSessionOptions): SessionStore {
    const now = options.now ?? new Date();
    const id = newSessionId();
    const header = make.headerOf(id, now.toISOString(), options.cwd, options.parentSession);
    const path = options.path ?? (options.dir ? join(options.dir, sessionFileName(now, id)) : undefined);
    return new SessionStore(header, { kind: "text", text: JSON.stringify(header) }, path, undefined, path !== undefined);
  }

  /** Opens an existing file. Read-only unless `write` is set; a legacy file is then migrated on disk. */
  static open(path: string, options: OpenOptions = {}): SessionStore {
    if (!options.write) return new SessionStore(...SessionStore.loadArgs(loadSessionFile(path)), false);
    let lock = acquireLock(path);
    try {
      // A migration cut short by a crash left its temp file: this process holds the lock now.
      removeStaleTemps(dirname(path), path);
      let loaded = loadSessionFile(path);
      if (loaded.migrated) {
        lock = writeMigrated(loaded, lock);
        loaded = loadSessionFile(path);
      }
      const store = new SessionStore(...SessionStore.loadArgs(loaded), true);
      store.lock = lock;
      return store;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static loadArgs(loaded: LoadedFile): [SessionHeader, LineSource, string, LoadedFile] {
    return [loaded.header, loaded.headerSource, loaded.path, loaded];
  }

  get header(): SessionHeader {
    return this.headerValue;
  }

  /** The session's file (it changes only when the file changed under pig: `moveToNewFile`). */
  get path(): string | undefined {
    return this.pathValue;
  }

  get sessionId(): string {
    return this.header.id;
  }

  get cwd(): string {
    return this.header.cwd ?? "";
  }

  get leafId(): string | null {
    return this.leaf;
  }

  get name(): string | undefined {
    return this.tree.sessionName;
  }

  /** Whether the session's file exists (an in-memory session, or one still to be written, has none). */
  get onDisk(): boolean {
    return this.path !== undefined && !this.headerPending;
  }

  /** Whether every entry is on disk (or the store is not backed by a file). */
  get isFlushed(): boolean {
    return this.pending.length === 0 && (!this.headerPending || !this.writable);
  }

  // ── reading ──────────────────────────────────────────────────────────────

  private readSource(source: LineSource): string {
    if (source.kind === "text") return source.text;
    if (!this.path) throw new Error("session has no file to read from");
    const bytes = readRange(this.readDescriptor(this.path), source.offset, source.length);
    return decodeUtf8(bytes, 0, bytes.length);
  }

  /**
   * A descriptor of the file loaded: the lock's own while it is held (it stays the file pig
   * loaded, whatever happens to its name), else one opened and checked to be that file.
   */
  private readDescriptor(path: string): number {
    if (this.lock?.fd !== undefined) return this.lock.fd;
    if (this.readFd === undefined) {
      const fd = openRegularFile(path, "read");
      // Offsets into another file than the one loaded would read someone else's bytes.
      if (this.appendState.identity !== undefined && fileIdentity(fstatSync(fd)) !== this.appendState.identity) {
        closeSync(fd);
        throw new SessionFileChangedError(path, "another file has taken its name");
      }
      this.readFd = fd;
    }
    return this.readFd;
  }

  /** The parsed entry of a record; throws the parser's error. */
  private parse(record: EntryRecord): SessionEntry {
    return record.value ?? (JSON.parse(this.readSource(record.source)) as SessionEntry);
  }

  /** The parsed entry of a record. */
  materialise = (record: EntryRecord): SessionEntry => {
    try {
      return this.parse(record);
    } catch (error) {
      throw new SessionFileError(
        this.path ?? "(memory)",
        "unreadable",
        `${this.path}:${record.line}: entry ${record.id} cannot be read back (${(error as Error).message})`,
      );
    }
  };

  /**
   * The parsed entry, or undefined when its line, read back, is not valid JSON after all (the
   * file changed under pig since it was loaded, which checked the line). Such a line is
   * then reported in `diagnostics`, kept in the file, and marked invalid: it takes no further
   * part in the context, as a malformed line found while loading.
   */
  readEntry = (record: EntryRecord): SessionEntry | undefined => {
    try {
      return this.parse(record);
    } catch (error) {
      if (!record.invalid) {
        const marked: EntryRecord = { ...record, invalid: true };
        // The same record, wherever it is held: in the tree, and still waiting to be written.
        this.tree.replace(record, marked);
        const waiting = this.pending.indexOf(record);
        if (waiting >= 0) this.pending[waiting] = marked;
        const why = (error as Error).message;
        const where = waiting >= 0 ? `${this.path} (entry ${record.id}, not written yet)` : `${this.path}:${record.line}`;
        this.diagnostics.push({ line: record.line, kind: "malformed", message: `${where}: not valid JSON (${why}); kept as it is, left out of the context` });
      }
      return undefined;
    }
  };

  getEntry(id: string): SessionEntry | undefined {
    const record = this.tree.get(id);
    return record ? this.readEntry(record) : undefined;
  }

  /** The line an entry is stored as: for loaded entries, exactly the bytes of the file. */
  serializeEntry(id: string): string | undefined {
    const record = this.tree.get(id);
    return record ? this.readSource(record.source) : undefined;
  }

  /** The line of this very record (with an id used twice, `serializeEntry` gives the later one's). */
  serializeRecord(record: EntryRecord): string {
    return this.readSource(record.source);
  }

  /** The header line as stored. */
  serializeHeader(): string {
    return this.readSource(this.headerSource);
  }

  /**
   * The bytes of the file that hold the header and, right after it, the first `count` records,
   * one line each with nothing between them (no blank, malformed or torn line): a reader can take
   * those lines from the file itself. Undefined when the header is not on disk as loaded.
   */
  flushedLines(): { offset: number; length: number; count: number } | undefined {
    const header = this.headerOnDisk;
    if (!this.path || !this.onDisk || !header) return undefined;
    let end = header.offset + header.length + 1;
    if (end > this.appendState.size) return undefined;
    let count = 0;
    for (const record of this.tree.records) {
      const source = record.source;
      if (source.kind !== "file" || source.offset !== end || source.offset + source.length + 1 > this.appendState.size) break;
      end = source.offset + source.length + 1;
      count++;
    }
    return { offset: header.offset, length: end - header.offset, count };
  }

  /** Records from the root to `id` (default: the leaf). */
  branchRecords(id: string | null = this.leaf): EntryRecord[] {
    return this.tree.pathTo(id);
  }

  /** The entries from the root to `id`; lines that turn out unreadable are left out (and reported). */
  getBranch(id: string | null = this.leaf): SessionEntry[] {
    return this.branchRecords(id).flatMap((record) => this.readEntry(record) ?? []);
  }

  planContext(leafId: string | null = this.leaf): ContextPlan {
    if (leafId === null) return { items: [], freshFrom: 0, thinkingLevel: "off", model: null };
    return planContext(this.branchRecords(leafId), this.readEntry);
  }

  /** The context of the branch. A line found unreadable drops out of it and of every later plan alike. */
  buildContext(leafId: string | null = this.leaf): SessionContext {
    return resolvePlan(this.planContext(leafId), this.readEntry);
  }

  // ── tree moves ───────────────────────────────────────────────────────────

  /** Makes `id` the leaf: the next entry becomes its child. */
  branch(id: string): void {
    if (!this.tree.has(id)) throw new Error(`Entry ${id} not found`);
    this.leaf = id;
  }

  /** Moves the leaf before the first entry: the next entry is a new root. */
  resetLeaf(): void {
    this.leaf = null;
  }

  // ── appending ────────────────────────────────────────────────────────────

  /** Entries in the tree that are not in the file yet (a write failed, or the first answer is still to come). */
  get unsaved(): readonly { id: string; type: string; role?: string }[] {
    return this.pending.map((r) => ({ id: r.id, type: r.type, ...(r.role !== undefined ? { role: r.role } : {}) }));
  }

  protected append(entry: SessionEntry): string {
    const message = (entry as { message?: { role?: unknown } }).message;
    const role = entry.type === "message" && typeof message?.role === "string" ? message.role : undefined;
    const adopted: AdoptedEntry = { type: entry.type, id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp, role, value: entry };
    if (entry.type === "message" || entry.type === "custom_message") return this.adopt(adopted, JSON.stringify(entry));
    // Anything but conversation (a compaction, a model or level change, a label, a name) that
    // cannot be written is taken back, so the session stays as the file has it; the caller hears
    // why. Conversation stays, unsaved, and goes out with the next write that succeeds.
    const leaf = this.leaf;
    const record = this.place(adopted, JSON.stringify(entry));
    try {
      if (this.hasAssistant) this.flush();
    } catch (error) {
      if (this.pending.at(-1) === record) {
        this.pending.pop();
        this.tree.removeLast(record);
        this.leaf = leaf;
      }
      throw error;
    }
    return entry.id;
  }

  /**
   * Appends an entry whose line is already made: a copy from another session keeps its bytes.
   * For use inside the session module; `text` must be the entry's line.
   */
  adopt(entry: AdoptedEntry, text: string): string {
    this.place(entry, text);
    if (this.hasAssistant) this.flush();
    return entry.id;
  }

  /** Like `adopt` for many entries, written together: a copy appears in the file whole. */
  adoptAll(entries: Iterable<{ entry: AdoptedEntry; text: string }>): void {
    for (const { entry, text } of entries) this.place(entry, text);
    if (this.hasAssistant) this.flush();
  }

  private place(entry: AdoptedEntry, text: string): EntryRecord {
    const record: EntryRecord = {
      line: 0,
      type: entry.type,
      id: entry.id,
      parentId: entry.parentId,
      timestamp: entry.timestamp,
      ...(entry.role !== undefined ? { role: entry.role } : {}),
      ...(entry.value !== undefined ? { value: entry.value } : {}),
      ...(entry.invalid ? { invalid: true as const } : {}),
      source: { kind: "text", text },
    };
    this.tree.add(record);
    this.pending.push(record);
    this.leaf = entry.id;
    if (record.role === "assistant") this.hasAssistant = true;
    for (const listener of this.placedListeners) listener(record);
    return record;
  }

  /** Told of every entry added to the tree, as it is added (before it reaches the file). */
  onEntryAdded(listener: (record: EntryRecord) => void): () => void {
    this.placedListeners.add(listener);
    return () => this.placedListeners.delete(listener);
  }

  // ── writing ──────────────────────────────────────────────────────────────

  /**
   * Writes the header (for a new file) and every pending entry. Called on its own once the
   * session has an assistant message; `force` writes even before that.
   */
  flush(force = false): void {
    if (!this.writable || !this.path) return;
    if (!force && !this.hasAssistant) return;
    if (!this.headerPending && this.pending.length === 0) return;
    if (this.headerPending) {
      try {
        mkdirSync(dirname(this.path), { recursive: true });
      } catch (error) {
        throw new SessionWriteError(this.path, error);
      }
    }
    const lines = this.pending.map((record) => (record.source as { text: string }).text);
    let offsets: number[];
    if (this.headerPending) {
      // A new file appears whole: header and every entry so far, or nothing.
      removeStaleTemps(dirname(this.path));
      let created: { offsets: number[]; size: number; identity: string };
      const headerText = this.readSource(this.headerSource);
      const path = this.path;
      // The file is locked before it has its name, so no other writer can find it unlocked.
      let claimed: SessionLock | undefined;
      try {
        created = createFileWithLines(path, [headerText, ...lines], (temp) => (claimed = this.lock ?? lockNewFile(temp, path)));
      } catch (error) {
        if (claimed !== this.lock) claimed?.release();
        if ((error as { code?: string }).code !== "EEXIST") throw error;
        throw new SessionFileError(path, "unreadable", `Refusing to write a new session over the existing file ${path}`);
      }
      this.lock = claimed;
      this.appendState.identity = created.identity;
      this.appendState.size = created.size;
      this.appendState.endsWithNewline = true;
      this.headerOnDisk = { offset: created.offsets[0]!, length: Buffer.byteLength(headerText) };
      offsets = created.offsets.slice(1);
    } else {
      offsets = appendLines(this.path, this.appendState, lines);
    }
    this.headerPending = false;
    // Taken off the list first: whatever happens below, these lines are in the file now.
    const written = this.pending.splice(0);
    written.forEach((record, index) => {
      const text = (record.source as { text: string }).text;
      const onDisk: EntryRecord = {
        ...record,
        source: { kind: "file", offset: offsets[index]!, length: Buffer.byteLength(text) },
      };
      if (!keepsValue(record.type)) delete (onDisk as { value?: unknown }).value;
      this.tree.replace(record, onDisk);
    });
  }

  /**
   * Stops writing: the session goes on in memory only (its file could not be made). What is not
   * in the file stays unsaved; nothing more is written.
   */
  keepInMemory(): void {
    this.writable = false;
  }

  /**
   * Goes on in a new file beside the old one, when the old one changed under pig (cut short, or
   * replaced): `<time>_<new id>.jsonl`, its header naming the old file as its parent, holding
   * every entry pig can still read (relocate.ts) and those not written yet. The old file is left
   * as it is. Returns the new path and how many entries could not be copied.
   */
  moveToNewFile(now = new Date()): { path: string; lost: number } {
    const old = this.path;
    if (!old || !this.writable) throw new Error("this session has no file to move");
    const { kept, lost } = relocatedLines(this.tree.records, (record) => this.readSource(record.source));
    const header = make.headerOf(newSessionId(), now.toISOString(), this.cwd, old);
    const headerText = JSON.stringify(header);
    const path = join(dirname(old), sessionFileName(now, header.id));
    let claimed: SessionLock | undefined;
    let created: { offsets: number[]; size: number; identity: string };
    try {
      created = createFileWithLines(path, [headerText, ...kept.map((k) => k.text)], (temp) => (claimed = lockNewFile(temp, path)));
    } catch (error) {
      claimed?.release();
      throw error instanceof SessionWriteError ? error : new SessionWriteError(path, error);
    }
    this.lock?.release();
    this.lock = claimed;
    if (this.readFd !== undefined) closeSync(this.readFd);
    this.readFd = undefined;
    this.headerValue = header;
    this.headerSource = { kind: "file", offset: 0, length: Buffer.byteLength(headerText) };
    this.headerOnDisk = { offset: 0, length: Buffer.byteLength(headerText) };
    this.pathValue = path;
    this.headerPending = false;
    Object.assign(this.appendState, { size: created.size, endsWithNewline: true, identity: created.identity });
    kept.forEach(({ record, text }, index) => {
      const onDisk: EntryRecord = { ...record, line: index + 2, source: { kind: "file", offset: created.offsets[index + 1]!, length: Buffer.byteLength(text) } };
      if (!keepsValue(record.type)) delete (onDisk as { value?: unknown }).value;
      this.tree.replace(record, onDisk);
    });
    // Gone with the old file: still in the tree (its children hang on it), never read again.
    for (const record of lost) this.tree.replace(record, { ...record, invalid: true, source: { kind: "text", text: "" } });
    this.pending.length = 0;
    return { path, lost: lost.length };
  }

  /** Releases the file: the write lock and any open descriptor. Pending entries stay unwritten. */
  close(): void {
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
