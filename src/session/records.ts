/**
 * What the store keeps per entry: where its line lives and the few fields the tree needs.
 * The entry itself is parsed only when something asks for it. A record placed in a session
 * holds its line as text until the line is written; from then on it holds where the line is.
 */
import type { SessionEntry } from "./format.ts";

/** Where an entry's line is: a byte range of the file, or text not (yet) read from disk. */
export type LineSource =
  | {
      readonly kind: "file";
      readonly offset: number;
      readonly length: number;
      /**
       * Byte range of the `message` value within the file, when known without parsing (two
       * numbers here rather than an object: a large session has one per message line).
       */
      readonly messageOffset?: number;
      readonly messageLength?: number;
    }
  | { readonly kind: "text"; readonly text: string };

export interface EntryRecord {
  /** 1-based line number in the file (for pending entries: the line they will take). */
  readonly line: number;
  readonly type: string;
  readonly id: string;
  /** `null` for a root written as such; `undefined` when the line has no `parentId` key. */
  readonly parentId: string | null | undefined;
  readonly timestamp: string;
  /** For `message` entries: the message role. */
  readonly role?: string;
  /** Set when a known entry type fails its schema: kept in the tree, ignored for context. */
  readonly invalid?: true;
  /** Parsed value, kept for small entries (everything but messages and custom messages). */
  readonly value?: SessionEntry;
  readonly source: LineSource;
}

/** A line of the file that is not an entry pig can place in the tree; kept as it is. */
export interface LoadDiagnostic {
  readonly line: number;
  readonly kind: "malformed" | "invalid" | "torn" | "oversized" | "duplicate-id" | "dangling-parent" | "parent-cycle" | "newer-version";
  readonly message: string;
}

/** Entry types whose parsed value is kept in memory after loading. */
export function keepsValue(type: string): boolean {
  return type !== "message" && type !== "custom_message";
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

/** The record of an entry placed in a session, its line `text` not written yet. */
export function placedRecord(entry: AdoptedEntry, text: string): EntryRecord {
  return {
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
}

/**
 * `record` once its line `text` is in the file at `offset` (and, when given, as its `line`th line).
 * Only the values `keepsValue` names stay in memory: the others are read back from the file.
 */
export function writtenRecord(record: EntryRecord, offset: number, text: string, line = record.line): EntryRecord {
  const written: EntryRecord = { ...record, line, source: { kind: "file", offset, length: Buffer.byteLength(text) } };
  if (!keepsValue(record.type)) delete (written as { value?: unknown }).value;
  return written;
}
