/**
 * New sessions made from existing ones: a branch copied into its own file (fork, clone), and a
 * whole session copied into another project (`--fork`). Copied entries keep their ids,
 * timestamps and bytes; the new file's header names the source in `parentSession`.
 *
 * A copy of a named session is named after it with a mark of what it is ("refactor (fork)"), in a
 * `session_info` entry written with the copy: the two are told apart in every list, and the copy
 * is listed at the time it was made (last-written.ts).
 */
import { dirname } from "node:path";
import type { MessageEntry, UserMessage } from "./format.ts";
import { contentText } from "./convert.ts";
import { labelEntry, sessionInfoEntry } from "./entries.ts";
import { newEntryId } from "./ids.ts";
import { SessionFileError } from "./load.ts";
import type { AdoptedEntry } from "./records.ts";
import { SessionStore } from "./store.ts";
import { editableText } from "./title.ts";

/** What a copy is, as its name says it: "name (fork)", "name (clone)". */
export type CopyKind = "fork" | "clone";

const COPY_MARK = / \((?:fork|clone)\)$/;

/** The name of a copy of a session named `name`: a copy of a copy is marked once, by what it is now. */
export function copyName(name: string, kind: CopyKind): string {
  return `${name.replace(COPY_MARK, "")} (${kind})`;
}

/** The `session_info` entry naming a copy of `source`, when it has a name, as the copy's last entry. */
function copyNameEntry(source: SessionStore, kind: CopyKind, parentId: string | null, ids: Set<string>): { entry: AdoptedEntry; text: string }[] {
  if (!source.name) return [];
  const entry = sessionInfoEntry({ id: newEntryId({ has: (id) => ids.has(id) }), parentId, timestamp: new Date().toISOString() }, copyName(source.name, kind));
  ids.add(entry.id);
  return [{ entry: { ...entry, value: entry }, text: JSON.stringify(entry) }];
}

/**
 * Copies root → `leafId` (labels re-attached after it) into a new session in the same directory,
 * named after the source with `kind` marked (a `/fork` or a `/clone`).
 */
export function createBranchedSession(source: SessionStore, leafId: string | null, kind: CopyKind, dir?: string): SessionStore {
  const targetDir = dir ?? (source.path ? dirname(source.path) : undefined);
  const target = SessionStore.create({
    cwd: source.cwd,
    ...(targetDir ? { dir: targetDir } : {}),
    ...(source.path ? { parentSession: source.path } : {}),
  });
  const path = source.branchRecords(leafId).filter((record) => record.type !== "label");
  const kept = new Set(path.map((record) => record.id));
  // Placed one by one (label ids must not collide with the copied ones), written at once.
  const copies: { entry: AdoptedEntry; text: string }[] = [];
  const ids = new Set(path.map((record) => record.id));
  let parentId = path.at(-1)?.id ?? null;
  for (const [targetId, info] of source.tree.labels) {
    if (!kept.has(targetId)) continue;
    // A fresh label entry, keeping the time the label was set (upstream 0.73.1).
    const entry = labelEntry({ id: newEntryId({ has: (id) => ids.has(id) }), parentId, timestamp: info.timestamp }, targetId, info.label);
    ids.add(entry.id);
    parentId = entry.id;
    copies.push({ entry: { ...entry, value: entry }, text: JSON.stringify(entry) });
  }
  copies.push(...copyNameEntry(source, kind, parentId, ids));
  try {
    target.adoptAll([...path.map((record) => ({ entry: record, text: source.serializeRecord(record) })), ...copies]);
  } catch (error) {
    // Not written: the new file's lock goes with it.
    target.close();
    throw error;
  }
  return target;
}

export type ForkPosition = "before" | "at";

export interface ForkResult {
  readonly store: SessionStore;
  /** For a fork before a user message: that message's text, to put back in the editor. */
  readonly selectedText?: string;
}

/**
 * `before` (the default, `/fork`): `entryId` must be a user message; the new session ends at
 * its parent and the message's text is returned. `at` (`/clone`): the new session ends at `entryId`.
 */
export function forkSession(source: SessionStore, entryId: string, position: ForkPosition = "before"): ForkResult {
  const record = source.tree.get(entryId);
  if (position === "at") {
    if (!record) throw new Error(`Entry ${entryId} not found`);
    return { store: createBranchedSession(source, entryId, "clone") };
  }
  if (!record || record.type !== "message" || record.role !== "user") throw new Error("Invalid entry ID for forking");
  const message = (source.materialise(record) as MessageEntry).message as UserMessage;
  // An @-mention's attached files are not given back as `<file>` markup: the mention brings them again.
  const selectedText = editableText(message, contentText(message.content));
  return { store: createBranchedSession(source, record.parentId ?? null, "fork"), selectedText };
}

/** Copies every entry of `sourcePath` into a new session for `targetCwd` in `targetDir`, written at once. */
export function forkFrom(sourcePath: string, targetCwd: string, targetDir: string): SessionStore {
  let source: SessionStore;
  try {
    source = SessionStore.open(sourcePath);
  } catch (error) {
    if (error instanceof SessionFileError && error.kind !== "unreadable") {
      throw new SessionFileError(sourcePath, error.kind, `Cannot fork: source session file is empty or invalid: ${sourcePath}`);
    }
    throw error;
  }
  try {
    const target = SessionStore.create({ cwd: targetCwd, dir: targetDir, parentSession: sourcePath });
    try {
      const records = source.tree.records;
      const ids = new Set(records.map((record) => record.id));
      target.adoptAll([
        ...records.map((record) => ({ entry: record, text: source.serializeRecord(record) })),
        ...copyNameEntry(source, "fork", records.at(-1)?.id ?? null, ids),
      ]);
      target.flush(true);
    } catch (error) {
      target.close();
      throw error;
    }
    return target;
  } finally {
    source.close();
  }
}
