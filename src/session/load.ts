/**
 * Loading a session file into an index of records, without changing a byte of it.
 *
 * Current (v3) files are streamed once; message lines in the usual key order are indexed from
 * their first bytes and a structural check, everything else is parsed. Legacy (v1/v2) files are
 * parsed whole and migrated in memory; the migrated text is kept for a later rewrite.
 */
import { closeSync, fstatSync } from "node:fs";
import * as v from "valibot";
import { SessionHeaderSchema, checkEntry, describeIssues, CURRENT_SESSION_VERSION, type SessionHeader } from "./format.ts";
import { decodeUtf8, MAX_LINE_BYTES, scanLines, type ScannedLine } from "./lines.ts";
import { emptyMessageLine, readMessageLine } from "./line-shape.ts";
import { headerVersion, migrateLines } from "./migrate.ts";
import { keepsValue, type EntryRecord, type LineSource, type LoadDiagnostic } from "./records.ts";
import { NotRegularFileError, openRegularFile } from "./regular-file.ts";
import { fileIdentity } from "./write.ts";

export type SessionFileErrorKind = "missing" | "empty" | "not-session" | "unreadable" | "locked" | "unwritable";

/** A session file that cannot be used, with a message naming the file and the reason. */
export class SessionFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: SessionFileErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "SessionFileError";
  }
}

export interface LoadedFile {
  readonly path: string;
  readonly header: SessionHeader;
  readonly headerSource: LineSource;
  /** The version the file declares (before migration). */
  readonly version: number;
  readonly records: EntryRecord[];
  readonly diagnostics: LoadDiagnostic[];
  /** Bytes in the file when it was read. */
  readonly size: number;
  /** The file's device and inode (write.ts `fileIdentity`). */
  readonly identity: string;
  readonly endsWithNewline: boolean;
  /** Number of lines in the file, blank and unusable ones included. */
  readonly lineCount: number;
  /** For legacy files: every line of the migrated file, in order. */
  readonly migrated?: LineSource[];
}

export interface LoadOptions {
  /** Lines this long or longer are reported and left out, not read (default: `MAX_LINE_BYTES`). */
  maxLineBytes?: number;
}

/**
 * Loads `path`. Throws `SessionFileError` when it is missing, empty, not a regular file (a
 * FIFO, a device, a directory: never opened in a way that could block) or not a session.
 */
export function loadSessionFile(path: string, options: LoadOptions = {}): LoadedFile {
  const fd = openSessionFile(path);
  const limit = options.maxLineBytes ?? MAX_LINE_BYTES;
  try {
    const identity = fileIdentity(fstatSync(fd));
    const loaded = loadCurrent(fd, path, limit) ?? loadLegacy(fd, path, limit);
    return { ...loaded, identity };
  } finally {
    closeSync(fd);
  }
}

/** A read descriptor of the session file `path`, or the `SessionFileError` that says why not. */
export function openSessionFile(path: string): number {
  try {
    return openRegularFile(path, "read");
  } catch (error) {
    throw openFailure(path, error, `Cannot read session file ${path}: ${(error as Error).message}`);
  }
}

/** The `SessionFileError` for a session file that could not be opened; `otherwise` for other errors. */
export function openFailure(path: string, error: unknown, otherwise: string): SessionFileError {
  if (error instanceof NotRegularFileError) {
    const message = error.what === "a directory" ? `${path} is a directory, not a session file` : `${error.message}; a session file is a regular file`;
    return new SessionFileError(path, "not-session", message);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new SessionFileError(path, "missing", `Session file not found: ${path}`);
  return new SessionFileError(path, "unreadable", otherwise);
}

/** "256 MiB" */
function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${bytes} bytes`;
}

/** What a line too long to read is reported as. */
function oversizedMessage(length: number, limit: number): string {
  return `${length} bytes long, over the ${mebibytes(limit)} a line may have; kept in the file, not read, left out of the session`;
}

function isBlank(buf: Uint8Array, start: number, length: number): boolean {
  for (let i = start; i < start + length; i++) {
    const c = buf[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function fileSource(line: ScannedLine): LineSource {
  return { kind: "file", offset: line.offset, length: line.length };
}

function parseHeader(path: string, text: string): SessionHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SessionFileError(path, "not-session", `${path} is not a session file: its first line is not JSON`);
  }
  const result = v.safeParse(SessionHeaderSchema, value);
  if (!result.success) {
    throw new SessionFileError(
      path,
      "not-session",
      `${path} is not a session file: its first line is not a session header (${describeIssues(result.issues)})`,
    );
  }
  return value as SessionHeader;
}

/** Turns a parsed line into a record, or a diagnostic when it cannot take part in the tree. */
class RecordCollector {
  readonly records: EntryRecord[] = [];
  readonly diagnostics: LoadDiagnostic[] = [];
  /** The message line being read (one for the load, filled in line after line). */
  readonly messageLine = emptyMessageLine();

  constructor(private readonly path: string) {}

  addParsed(value: unknown, lineNo: number, source: LineSource, keepAll: boolean): void {
    const check = checkEntry(value);
    if (check.kind === "not-entry") {
      this.report(lineNo, "invalid", `not a session entry (${check.reason}); kept as it is`);
      return;
    }
    const entry = check.entry;
    if (check.kind === "invalid") this.report(lineNo, "invalid", `${check.reason}; kept, ignored for context`);
    const message = (entry as { message?: { role?: unknown } }).message;
    const role = entry.type === "message" && typeof message?.role === "string" ? message.role : undefined;
    this.add({
      line: lineNo,
      type: entry.type,
      id: entry.id,
      parentId: "parentId" in entry ? entry.parentId : undefined,
      timestamp: entry.timestamp,
      ...(role !== undefined ? { role } : {}),
      ...(check.kind === "invalid" ? { invalid: true } : {}),
      ...(keepAll || keepsValue(entry.type) ? { value: entry } : {}),
      source,
    });
  }

  /** An id used by an earlier line too is the tree's to report (tree-links.ts), where every id is looked up anyway. */
  add(record: EntryRecord): void {
    this.records.push(record);
  }

  report(line: number, kind: LoadDiagnostic["kind"], message: string): void {
    this.diagnostics.push({ line, kind, message: `${this.path}:${line}: ${message}` });
  }
}

/** Loads a v3 (or newer) file; returns undefined when the header says it needs migrating. */
function loadCurrent(fd: number, path: string, limit: number): Omit<LoadedFile, "identity"> | undefined {
  const collector = new RecordCollector(path);
  let header: SessionHeader | undefined;
  let headerSource: LineSource | undefined;
  let legacy = false;
  let lineCount = 0;
  const result = scanLines(fd, (line) => {
    lineCount = line.lineNo;
    const { buf, start, length } = line;
    if (!line.oversized && isBlank(buf, start, length)) return;
    if (!header) {
      if (line.oversized) {
        throw new SessionFileError(path, "not-session", `${path} is not a session file: its first line is ${length} bytes long, over the ${mebibytes(limit)} a line may have`);
      }
      header = parseHeader(path, decodeUtf8(buf, start, start + length));
      headerSource = fileSource(line);
      if (headerVersion(header) < CURRENT_SESSION_VERSION) {
        legacy = true;
        return false;
      }
      return;
    }
    if (line.oversized) {
      collector.report(line.lineNo, "oversized", oversizedMessage(length, limit));
      return;
    }
    indexLine(collector, line);
  }, 0, limit, true);
  if (legacy) return undefined;
  if (!header || !headerSource) {
    throw new SessionFileError(path, "empty", `Session file is empty: ${path}`);
  }
  const version = headerVersion(header);
  if (version > CURRENT_SESSION_VERSION) {
    collector.report(1, "newer-version", `written by a newer format (v${version}); unknown entries are kept as they are`);
  }
  return {
    path,
    header,
    headerSource,
    version,
    records: collector.records,
    diagnostics: collector.diagnostics,
    size: result.size,
    endsWithNewline: result.endsWithNewline,
    lineCount,
  };
}

function indexLine(collector: RecordCollector, line: ScannedLine): void {
  const { buf, start, length, lineNo } = line;
  const end = start + length;
  // A message line in the usual key order is taken without being parsed, once it is known to
  // be valid JSON: whoever reads it back later can trust it. Anything else is parsed here.
  const { records } = collector;
  const previousId = records.length > 0 ? records[records.length - 1]!.id : undefined;
  const message = readMessageLine(buf, start, end, line.utf8, previousId, collector.messageLine);
  if (message) {
    const { offset } = line;
    collector.add({
      line: lineNo,
      type: "message",
      id: message.id,
      parentId: message.parentId,
      timestamp: message.timestamp,
      role: message.role,
      // Two literals rather than a spread: made 20,000 times for a large session.
      source:
        message.valueFrom >= 0
          ? { kind: "file", offset, length, messageOffset: offset + (message.valueFrom - start), messageLength: message.valueTo - message.valueFrom }
          : { kind: "file", offset, length },
    });
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(buf, start, end));
  } catch (error) {
    if (!line.terminated) {
      collector.report(lineNo, "torn", `last line is incomplete (${length} bytes, no newline); kept, the next entry starts on a new line`);
    } else {
      collector.report(lineNo, "malformed", `not valid JSON (${(error as Error).message}); kept as it is`);
    }
    return;
  }
  collector.addParsed(value, lineNo, fileSource(line), false);
}

/** Loads a v1/v2 file: parses every line, migrates in memory, keeps the migrated text. */
function loadLegacy(fd: number, path: string, limit: number): Omit<LoadedFile, "identity"> {
  const sources: LineSource[] = [];
  const values: unknown[] = [];
  const terminated: boolean[] = [];
  const malformed: { index: number; message: string }[] = [];
  const oversized: { index: number; length: number }[] = [];
  const result = scanLines(fd, (line) => {
    const index = sources.length;
    sources.push(fileSource(line));
    terminated.push(line.terminated);
    if (line.oversized) {
      values.push(undefined);
      oversized.push({ index, length: line.length });
      return;
    }
    if (isBlank(line.buf, line.start, line.length)) {
      values.push(undefined);
      return;
    }
    try {
      values.push(JSON.parse(decodeUtf8(line.buf, line.start, line.start + line.length)));
    } catch (error) {
      values.push(undefined);
      malformed.push({ index, message: (error as Error).message });
    }
  }, 0, limit);
  const declared = headerVersion(values.find((x) => x !== undefined) as Record<string, unknown>);
  const changed = migrateLines(values);
  // A line nested too deeply to write out again is kept exactly as it was, and out of the tree:
  // the entry that the migration made its child hangs on its parent instead.
  const texts = new Map<number, string>();
  const tooDeep: number[] = [];
  for (const index of changed) {
    try {
      texts.set(index, JSON.stringify(values[index]));
    } catch {
      tooDeep.push(index);
    }
  }
  for (const index of tooDeep) {
    const dropped = values[index] as { id?: unknown; parentId?: unknown };
    values[index] = undefined;
    for (const [i, value] of values.entries()) {
      const entry = value as { parentId?: unknown } | undefined;
      if (entry && dropped.id !== undefined && entry.parentId === dropped.id) {
        entry.parentId = dropped.parentId ?? null;
        if (texts.has(i)) texts.set(i, JSON.stringify(entry));
      }
    }
  }
  const migrated = sources.map((source, index): LineSource => {
    const text = texts.get(index);
    return text === undefined ? source : { kind: "text", text };
  });
  const collector = new RecordCollector(path);
  for (const index of tooDeep) collector.report(index + 1, "malformed", "nested too deeply to migrate; kept as it is");
  for (const { index, length } of oversized) collector.report(index + 1, "oversized", oversizedMessage(length, limit));
  for (const { index, message } of malformed) {
    const torn = index === sources.length - 1 && !terminated[index];
    collector.report(index + 1, torn ? "torn" : "malformed", torn ? "last line is incomplete; kept" : `not valid JSON (${message}); kept as it is`);
  }
  let header: SessionHeader | undefined;
  let headerSource: LineSource | undefined;
  values.forEach((value, index) => {
    if (value === undefined) return;
    const source = migrated[index]!;
    if (!header) {
      header = parseHeader(path, JSON.stringify(value));
      headerSource = source;
      return;
    }
    collector.addParsed(value, index + 1, source, true);
  });
  collector.diagnostics.sort((a, b) => a.line - b.line);
  return {
    path,
    header: header!,
    headerSource: headerSource!,
    version: declared,
    records: collector.records,
    diagnostics: collector.diagnostics,
    size: result.size,
    endsWithNewline: result.endsWithNewline,
    lineCount: sources.length,
    migrated,
  };
}
