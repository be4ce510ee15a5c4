/**
 * What the store keeps per entry: where its line lives and the few fields the tree needs.
 * The entry itself is parsed only when something asks for it.
 */
import type { SessionEntry } from "./format.ts";

/** Where an entry's line is: a byte range of the file, or text not (yet) read from disk. */
export type LineSource =
  | {
      readonly kind: "file";
      readonly offset: number;
      readonly length: number;
      /** Byte range of the `message` value within the file, when known without parsing. */
      readonly message?: { readonly offset: number; readonly length: number };
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
