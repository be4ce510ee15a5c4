/**
 * The runner's copy of the session log, for Pi's synchronous `ctx.sessionManager` reads.
 * Nothing is asked for until the first read, which subscribes synchronously (see Peer's
 * `requestSync`); later appends, leaf moves and session switches arrive as notifications.
 * Entries are kept as the exact JSON text of their line and parsed only when read.
 */


type Json = Record<string, unknown>;

export interface SessionSnapshot {
  header: string;
  entries: string[];
  leafId: string | null;
  sessionFile?: string;
  /** In the answer to `session.subscribe {file: true}`: where the header and the first `count` entries are. */
  file?: { path: string; offset: number; length: number; count: number };
}

/** The file is not what pig described (it changed, or is another file): ask for the text instead. */
export class SnapshotFileError extends Error {}

const decoder = new TextDecoder();

/**
 * A snapshot with its `file` part read from disk: the header and the first `count` entries are
 * the lines of bytes [offset, offset + length), each ended by an LF; the first must be the
 * header pig sent. The rest of the entries came as text.
 */
export function readSnapshotFile(snapshot: SessionSnapshot): SessionSnapshot {
  const file = snapshot.file;
  if (!file) return snapshot;
  const { path, offset, length, count } = file;
  const where = `${path} [${offset}, ${offset + length})`;
  // Loaded here, not with the runner: most runs never read the session (~4 ms of a runner's start).
  const { closeSync, fstatSync, openSync, readSync } = require("node:fs") as typeof import("node:fs");
  let bytes: Buffer;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new SnapshotFileError(`cannot open the session file ${path}: ${(error as Error).message}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size < offset + length) throw new SnapshotFileError(`${path} has ${size} bytes, fewer than the ${offset + length} pig named`);
    bytes = Buffer.allocUnsafe(length);
    for (let done = 0; done < length; ) {
      const got = readSync(fd, bytes, done, length - done, offset + done);
      if (got === 0) throw new SnapshotFileError(`${where}: the file ended early`);
      done += got;
    }
  } finally {
    closeSync(fd);
  }
  if (length === 0 || bytes[length - 1] !== 0x0a) throw new SnapshotFileError(`${where}: does not end with a line feed`);
  const lines = decoder.decode(bytes).split("\n");
  lines.pop();
  if (lines.length !== count + 1) throw new SnapshotFileError(`${where}: ${lines.length} lines, pig named ${count + 1}`);
  if (lines[0] !== snapshot.header) throw new SnapshotFileError(`${where}: the first line is not the session's header`);
  lines.shift();
  for (const text of snapshot.entries) lines.push(text);
  const { file: _file, ...rest } = snapshot;
  return { ...rest, entries: lines };
}

const REPLICATION = new Set(["session.appended", "session.leaf", "session.replaced"]);

/**
 * The first read's subscription: the entries on disk are read from the file. Should the file
 * not match, the inline snapshot is asked for; replication notifications the host sent before
 * that answer are already in it, so they are dropped (nothing is applied twice).
 */
export function subscribeSession(requestSync: <T>(method: string, params: unknown, timeoutMs?: number, dropEarlier?: (method: string) => boolean) => T): SessionSnapshot {
  const answer = requestSync<SessionSnapshot>("session.subscribe", { file: true });
  try {
    return readSnapshotFile(answer);
  } catch (error) {
    if (!(error instanceof SnapshotFileError)) throw error;
    process.stderr.write(`pig extension runner: ${error.message}; reading the session from pig instead\n`);
    return requestSync<SessionSnapshot>("session.subscribe", {}, undefined, (method) => REPLICATION.has(method));
  }
}

export interface SessionTreeNode {
  entry: Json;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

interface Row {
  text: string;
  id: string | undefined;
  parentId: string | null | undefined;
  type: string | undefined;
  parsed?: Json;
}

const ID = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const PARENT = /"parentId"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|null)/;
const TYPE = /"type"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/** Top-level keys come first in session lines, so the first match is the entry's own. */
function indexRow(text: string): Row {
  const head = text.length > 400 ? text.slice(0, 400) : text;
  const id = ID.exec(head)?.[1];
  const parent = PARENT.exec(head);
  const type = TYPE.exec(head)?.[1];
  if (id === undefined || type === undefined || !parent) {
    const parsed = JSON.parse(text) as Json;
    return { text, parsed, id: parsed.id as string | undefined, parentId: (parsed.parentId as string | null) ?? null, type: parsed.type as string | undefined };
  }
  return { text, id, parentId: parent[1] ?? null, type };
}

export class SessionMirror {
  private header: string | undefined;
  private headerParsed: Json | undefined;
  private rows: Row[] = [];
  private byId = new Map<string, number>();
  private leafId: string | null = null;
  sessionFile: string | undefined;

  constructor(private readonly subscribe: () => SessionSnapshot) {}

  get subscribed(): boolean {
    return this.header !== undefined;
  }

  private ensure(): void {
    if (this.header === undefined) this.replace(this.subscribe());
  }

  replace(snapshot: SessionSnapshot): void {
    this.header = snapshot.header;
    this.headerParsed = undefined;
    this.rows = [];
    this.byId = new Map();
    this.leafId = snapshot.leafId;
    if (snapshot.sessionFile !== undefined) this.sessionFile = snapshot.sessionFile;
    this.append(snapshot.entries, snapshot.leafId);
  }

  append(entries: readonly string[], leafId: string | null): void {
    if (this.header === undefined) return;
    for (const text of entries) {
      const row = indexRow(text);
      if (row.id !== undefined) this.byId.set(row.id, this.rows.length);
      this.rows.push(row);
    }
    this.leafId = leafId;
  }

  /** The mirror as exact lines, without subscribing (`check.mirror`). */
  lines(): { subscribed: false } | { subscribed: true; header: string; entries: string[]; leafId: string | null } {
    if (this.header === undefined) return { subscribed: false };
    return { subscribed: true, header: this.header, entries: this.rows.map((row) => row.text), leafId: this.leafId };
  }

  moveLeaf(leafId: string | null): void {
    if (this.header !== undefined) this.leafId = leafId;
  }

  private entryOf(row: Row): Json {
    row.parsed ??= JSON.parse(row.text) as Json;
    return row.parsed;
  }

  getHeader(): Json | null {
    this.ensure();
    this.headerParsed ??= JSON.parse(this.header!) as Json;
    return this.headerParsed;
  }

  getLeafId(): string | null {
    this.ensure();
    return this.leafId;
  }

  getEntry(id: string): Json | undefined {
    this.ensure();
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.entryOf(this.rows[i]!);
  }

  getLeafEntry(): Json | undefined {
    const leaf = this.getLeafId();
    return leaf === null ? undefined : this.getEntry(leaf);
  }

  getEntries(): Json[] {
    this.ensure();
    return this.rows.map((row) => this.entryOf(row));
  }

  getBranch(fromId?: string): Json[] {
    this.ensure();
    const path: Json[] = [];
    let at: string | null | undefined = fromId ?? this.leafId;
    const seen = new Set<string>();
    while (at && !seen.has(at)) {
      seen.add(at);
      const i = this.byId.get(at);
      if (i === undefined) break;
      const row = this.rows[i]!;
      path.push(this.entryOf(row));
      at = row.parentId;
    }
    return path.reverse();
  }

  /** Latest label of each target; label entries are the only ones parsed for this. */
  private labels(): Map<string, { label: string; timestamp?: string }> {
    const out = new Map<string, { label: string; timestamp?: string }>();
    for (const row of this.rows) {
      if (row.type !== "label") continue;
      const e = this.entryOf(row);
      const target = e.targetId as string | undefined;
      if (!target) continue;
      const label = typeof e.label === "string" ? e.label.trim() : "";
      if (label) out.set(target, { label, timestamp: e.timestamp as string | undefined });
      else out.delete(target);
    }
    return out;
  }

  getLabel(id: string): string | undefined {
    this.ensure();
    return this.labels().get(id)?.label;
  }

  getSessionName(): string | undefined {
    this.ensure();
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const row = this.rows[i]!;
      if (row.type !== "session_info") continue;
      const name = this.entryOf(row).name;
      return typeof name === "string" && name.trim() ? name.trim() : undefined;
    }
    return undefined;
  }

  getTree(): SessionTreeNode[] {
    this.ensure();
    const labels = this.labels();
    const nodes = new Map<string, SessionTreeNode>();
    const roots: SessionTreeNode[] = [];
    for (const row of this.rows) {
      const node: SessionTreeNode = { entry: this.entryOf(row), children: [] };
      const label = row.id ? labels.get(row.id) : undefined;
      if (label) {
        node.label = label.label;
        if (label.timestamp) node.labelTimestamp = label.timestamp;
      }
      if (row.id) nodes.set(row.id, node);
      const parent = row.parentId ? nodes.get(row.parentId) : undefined;
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }
}
