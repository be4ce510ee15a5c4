/**
 * A session's current branch as a session file of its own (`/export file.jsonl`): a new header
 * (same session id, the export's time, no `parentSession`) and the entries from the root to
 * the leaf, each line exactly as stored. The path to the leaf is already a chain (each entry's
 * parent is the one before it), so no entry needs rewriting.
 */
import type { SessionStore } from "./store.ts";

export function exportBranchJsonl(store: SessionStore, now: Date = new Date()): string {
  const header = JSON.parse(store.serializeHeader()) as Record<string, unknown>;
  header.timestamp = now.toISOString();
  delete header.parentSession;
  const lines = [JSON.stringify(header)];
  for (const record of store.branchRecords()) lines.push(store.serializeEntry(record.id)!);
  return `${lines.join("\n")}\n`;
}
