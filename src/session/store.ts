/**
 * A session: its header, its tree of entries, the active leaf, and what of it is in its file.
 *
 * Entries are appended, never changed. Writing is lazy as upstream (nothing reaches disk until
 * the session holds an assistant message), but pig tracks per entry what is on disk, so an
 * entry is written exactly once; an entry not written yet stays in the session, unsaved, and goes
 * out with the next write that succeeds. The file itself, its lock and its checks are
 * session-file.ts; going on in a new file when it changed under pig is relocate.ts. The typed
 * `append…` methods are appends.ts's, passed on from here; every one of them ends in `append` here.
 */
import { join } from "node:path";
import { SessionAppends } from "./appends.ts";
import { planContext, resolvePlan, type ContextPlan, type SessionContext } from "./context.ts";
import { headerOf } from "./entries.ts";
import type { SessionEntry, SessionHeader } from "./format.ts";
import { newSessionId, sessionFileName } from "./ids.ts";
import { loadSessionFile, SessionFileError, type LoadedFile } from "./load.ts";
import { placedRecord, writtenRecord, type AdoptedEntry, type EntryRecord, type LineSource, type LoadDiagnostic } from "./records.ts";
import { continueInNewFile } from "./relocate.ts";
import { SessionFile } from "./session-file.ts";
import { SessionTree } from "./tree.ts";

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

export class SessionStore {
  readonly tree: SessionTree;
  readonly diagnostics: LoadDiagnostic[];
  private leaf: string | null;
  private readonly pending: EntryRecord[] = [];
  private readonly placedListeners = new Set<(record: EntryRecord) => void>();
  private hasAssistant: boolean;
  private readonly appends: SessionAppends;
  private lastPlan: { leafId: string; version: number; plan: ContextPlan } | undefined;

  private constructor(
    private headerValue: SessionHeader,
    private headerSource: LineSource,
    /** The session's file, once there is one. */
    private file: SessionFile | undefined,
    /** Where the file of a new session is to be made, if anywhere. */
    private readonly newPath: string | undefined,
    loaded: LoadedFile | undefined,
    private writable: boolean,
  ) {
    const store = this;
    this.appends = new SessionAppends({
      get tree() {
        return store.tree;
      },
      get leafId() {
        return store.leafId;
      },
      branch: (id) => this.branch(id),
      resetLeaf: () => this.resetLeaf(),
      buildContext: (leafId) => this.buildContext(leafId),
      append: (entry) => this.append(entry),
    });
    const path = this.path;
    this.tree = new SessionTree(loaded?.records ?? []);
    // What the loader found line by line, and what the tree found (ids used twice, damaged links), in line order.
    const links = this.tree.linkProblems.map((p) => ({ line: p.line, kind: p.kind, message: `${path}:${p.line}: ${p.message}` }));
    this.diagnostics = [...(loaded?.diagnostics ?? []), ...links].sort((a, b) => a.line - b.line);
    this.leaf = this.tree.last?.id ?? null;
    this.hasAssistant = this.tree.records.some((r) => r.type === "message" && r.role === "assistant");
  }

  /** A new, empty session. With `dir`, it is written to `<dir>/<time>_<id>.jsonl` once it has an answer. */
  static create(options: NewSessionOptions): SessionStore {
    const now = options.now ?? new Date();
    const id = newSessionId();
    const header = headerOf(id, now.toISOString(), options.cwd, options.parentSession);
    const path = options.path ?? (options.dir ? join(options.dir, sessionFileName(now, id)) : undefined);
    return new SessionStore(header, { kind: "text", text: JSON.stringify(header) }, undefined, path, undefined, path !== undefined);
  }

  /** Opens an existing file. Read-only unless `write` is set; a legacy file is then migrated on disk. */
  static open(path: string, options: OpenOptions = {}): SessionStore {
    if (!options.write) {
      const loaded = loadSessionFile(path);
      return SessionStore.of(loaded, SessionFile.of(loaded), false);
    }
    const { file, loaded } = SessionFile.openToWrite(path);
    try {
      return SessionStore.of(loaded, file, true);
    } catch (error) {
      file.close();
      throw error;
    }
  }

  private static of(loaded: LoadedFile, file: SessionFile, writable: boolean): SessionStore {
    return new SessionStore(loaded.header, loaded.headerSource, file, undefined, loaded, writable);
  }

  get header(): SessionHeader {
    return this.headerValue;
  }

  /** The session's file (it changes only when the file changed under pig: `moveToNewFile`). */
  get path(): string | undefined {
    return this.file?.path ?? this.newPath;
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
    return this.file !== undefined;
  }

  /** Whether every entry is on disk (or the store is not backed by a file). */
  get isFlushed(): boolean {
    return this.pending.length === 0 && (this.onDisk || !this.writable);
  }

  // ── reading ──────────────────────────────────────────────────────────────

  private readSource(source: LineSource): string {
    if (source.kind === "text") return source.text;
    if (!this.file) throw new Error("session has no file to read from");
    return this.file.read(source);
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
    return this.file?.flushedLines(this.tree.records);
  }

  /** Records from the root to `id` (default: the leaf). */
  branchRecords(id: string | null = this.leaf): EntryRecord[] {
    return this.tree.pathTo(id);
  }

  /** The entries from the root to `id`; lines that turn out unreadable are left out (and reported). */
  getBranch(id: string | null = this.leaf): SessionEntry[] {
    return this.branchRecords(id).flatMap((record) => this.readEntry(record) ?? []);
  }

  /**
   * The plan of the context of the branch ending at `leafId`. The last one is kept until the tree
   * changes: a run's start asks for the leaf's plan several times (restoring the model, whether
   * there are messages), and a plan of a long branch walks all of it.
   */
  planContext(leafId: string | null = this.leaf): ContextPlan {
    if (leafId === null) return { items: [], freshFrom: 0, thinkingLevel: "off", model: null, levelChanged: false, lastModelChange: null };
    const kept = this.lastPlan;
    if (kept?.leafId === leafId && kept.version === this.tree.version) return kept.plan;
    const plan = planContext(this.branchRecords(leafId), this.readEntry);
    this.lastPlan = { leafId, version: this.tree.version, plan };
    return plan;
  }

  /**
   * A plan of its own for a context that goes out to the agent: planned afresh, not the kept
   * plan, because the messages a plan makes (summaries, custom messages) go out with it, and
   * each context gets its own.
   */
  planContextAfresh(leafId: string | null = this.leaf): ContextPlan {
    if (leafId === null) return this.planContext(null);
    return planContext(this.branchRecords(leafId), this.readEntry);
  }

  /** The context of the branch. A line found unreadable drops out of it and of every later plan alike. */
  buildContext(leafId: string | null = this.leaf): SessionContext {
    return resolvePlan(this.planContextAfresh(leafId), this.readEntry);
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

  appendMessage(...args: Parameters<SessionAppends["appendMessage"]>): string {
    return this.appends.appendMessage(...args);
  }

  appendModelChange(...args: Parameters<SessionAppends["appendModelChange"]>): string {
    return this.appends.appendModelChange(...args);
  }

  appendThinkingLevelChange(...args: Parameters<SessionAppends["appendThinkingLevelChange"]>): string {
    return this.appends.appendThinkingLevelChange(...args);
  }

  appendCompaction(...args: Parameters<SessionAppends["appendCompaction"]>): string {
    return this.appends.appendCompaction(...args);
  }

  branchWithSummary(...args: Parameters<SessionAppends["branchWithSummary"]>): string {
    return this.appends.branchWithSummary(...args);
  }

  appendCustomEntry(...args: Parameters<SessionAppends["appendCustomEntry"]>): string {
    return this.appends.appendCustomEntry(...args);
  }

  appendCustomMessageEntry(...args: Parameters<SessionAppends["appendCustomMessageEntry"]>): string {
    return this.appends.appendCustomMessageEntry(...args);
  }

  appendContextEdit(...args: Parameters<SessionAppends["appendContextEdit"]>): string {
    return this.appends.appendContextEdit(...args);
  }

  appendLabelChange(...args: Parameters<SessionAppends["appendLabelChange"]>): string {
    return this.appends.appendLabelChange(...args);
  }

  appendSessionInfo(...args: Parameters<SessionAppends["appendSessionInfo"]>): string {
    return this.appends.appendSessionInfo(...args);
  }

  private append(entry: SessionEntry): string {
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
    const record = placedRecord(entry, text);
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
    const path = this.path;
    if (!this.writable || !path) return;
    if (!force && !this.hasAssistant) return;
    if (this.file && this.pending.length === 0) return;
    const lines = this.pending.map(pendingText);
    let offsets: number[];
    if (this.file) {
      offsets = this.file.append(lines);
    } else {
      // A new file appears whole: header and every entry so far, or nothing.
      const created = SessionFile.createWithFolder(path, [this.serializeHeader(), ...lines]);
      this.file = created.file;
      offsets = created.offsets.slice(1);
    }
    // Taken off the list first: whatever happens below, these lines are in the file now.
    const written = this.pending.splice(0);
    written.forEach((record, index) => this.tree.replace(record, writtenRecord(record, offsets[index]!, pendingText(record))));
  }

  /**
   * Stops writing: the session goes on in memory only (its file could not be made). What is not
   * in the file stays unsaved; nothing more is written.
   */
  keepInMemory(): void {
    this.writable = false;
  }

  /**
   * Goes on in a new file beside the old one, when the old one changed under pig (relocate.ts),
   * with every entry pig can still read and those not written yet. Returns the new path and how
   * many entries could not be copied.
   */
  moveToNewFile(now = new Date()): { path: string; lost: number } {
    const old = this.path;
    if (!old || !this.writable) throw new Error("this session has no file to move");
    const moved = continueInNewFile(old, this.cwd, this.tree.records, (record) => this.readSource(record.source), now);
    this.file?.close();
    this.file = moved.file;
    this.headerValue = moved.header;
    this.headerSource = moved.headerSource;
    for (const [before, after] of moved.records) this.tree.replace(before, after);
    this.pending.length = 0;
    return { path: moved.file.path, lost: moved.lost };
  }

  /** Releases the file: the write lock and any open descriptor. Pending entries stay unwritten. */
  close(): void {
    this.file?.close();
  }
}

/** The line of an entry not written yet. */
function pendingText(record: EntryRecord): string {
  return (record.source as { text: string }).text;
}
