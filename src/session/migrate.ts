/**
 * Upgrading v1 and v2 session files to v3, as upstream Pi does on load.
 *
 * Works on the parsed objects of the file's lines, in file order (unparseable lines are
 * `undefined` and take no part). Returns which lines changed so that the rewrite can keep every
 * other line byte for byte.
 */
import { CURRENT_SESSION_VERSION } from "./format.ts";
import { newEntryId } from "./ids.ts";
import { isPlainObject } from "../util/plain-object.ts";

type Json = Record<string, unknown>;


/** The version a file declares in its header (no `version` field means v1). */
export function headerVersion(header: Json): number {
  return typeof header.version === "number" ? header.version : 1;
}

/**
 * Migrates the lines in place (as upstream: fields are set on the existing objects, so new keys
 * go last) and returns the indexes of the lines that changed.
 */
export function migrateLines(values: (unknown | undefined)[]): Set<number> {
  const changed = new Set<number>();
  const parsed: { index: number; value: Json }[] = [];
  values.forEach((value, index) => {
    if (isPlainObject(value)) parsed.push({ index, value });
  });
  const header = parsed[0]?.value;
  if (!header || header.type !== "session") return changed;
  const version = headerVersion(header);
  if (version >= CURRENT_SESSION_VERSION) return changed;
  if (version < 2) migrateV1ToV2(parsed, changed);
  if (version < 3) migrateV2ToV3(parsed, changed);
  return changed;
}

function migrateV1ToV2(parsed: { index: number; value: Json }[], changed: Set<number>): void {
  // Unlike upstream, the ids handed out are checked against each other.
  const used = new Set<string>();
  let previousId: string | null = null;
  for (const { index, value } of parsed) {
    changed.add(index);
    if (value.type === "session") {
      value.version = 2;
      continue;
    }
    const id = newEntryId(used);
    used.add(id);
    value.id = id;
    value.parentId = previousId;
    previousId = id;
    if (value.type === "compaction" && typeof value.firstKeptEntryIndex === "number") {
      // The index counts parsed entries of the whole file, header included, as v1 wrote it.
      const target = parsed[value.firstKeptEntryIndex]?.value;
      if (target && target.type !== "session") value.firstKeptEntryId = target.id;
      delete value.firstKeptEntryIndex;
    }
  }
}

function migrateV2ToV3(parsed: { index: number; value: Json }[], changed: Set<number>): void {
  for (const { index, value } of parsed) {
    if (value.type === "session") {
      value.version = 3;
      changed.add(index);
      continue;
    }
    if (value.type === "message" && isPlainObject(value.message) && value.message.role === "hookMessage") {
      value.message.role = "custom";
      changed.add(index);
    }
  }
}
