/**
 * What a session can take with it into a new file when its own file changed under pig (cut
 * short, or replaced by another file): every entry whose line pig can still read, with its
 * bytes, else written again from the value pig keeps; entries whose lines are gone are left out.
 */
import type { EntryRecord } from "./records.ts";

export interface RelocatedLines {
  /** The entries to copy, in file order, each with its line. */
  kept: { record: EntryRecord; text: string }[];
  /** Entries whose line could not be read any more, and that pig held no copy of. */
  lost: EntryRecord[];
}

/** `read` gives a record's line as stored, or throws when it is gone. */
export function relocatedLines(records: readonly EntryRecord[], read: (record: EntryRecord) => string): RelocatedLines {
  const kept: RelocatedLines["kept"] = [];
  const lost: EntryRecord[] = [];
  for (const record of records) {
    let text: string | undefined;
    try {
      text = read(record);
      JSON.parse(text);
    } catch {
      text = record.value !== undefined ? JSON.stringify(record.value) : undefined;
    }
    if (text === undefined) lost.push(record);
    else kept.push({ record, text });
  }
  return { kept, lost };
}
