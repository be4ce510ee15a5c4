/**
 * When a session's file changed under pig (cut short, or replaced by another file), appending to
 * it could corrupt it, and the lines pig knows of may be gone: the session goes on in a new file
 * beside it instead, `<time>_<new id>.jsonl`, its header naming the old file as its parent. The
 * new file takes every entry whose line pig can still read, with its bytes, else written again
 * from the value pig keeps; entries whose lines are gone are left out. The old file is left as it
 * is: whoever changed it may have meant to.
 */
import { dirname, join } from "node:path";
import { headerOf } from "./entries.ts";
import type { SessionHeader } from "./format.ts";
import { newSessionId, sessionFileName } from "./ids.ts";
import { writtenRecord, type EntryRecord, type LineSource } from "./records.ts";
import { SessionFile } from "./session-file.ts";
import { SessionWriteError } from "./write.ts";

interface RelocatedLines {
  /** The entries to copy, in file order, each with its line. */
  kept: { record: EntryRecord; text: string }[];
  /** Entries whose line could not be read any more, and that pig held no copy of. */
  lost: EntryRecord[];
}

/** `read` gives a record's line as stored, or throws when it is gone. */
function relocatedLines(records: readonly EntryRecord[], read: (record: EntryRecord) => string): RelocatedLines {
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

/** The new file of a session, and what each of its records becomes with it. */
export interface Relocation {
  file: SessionFile;
  header: SessionHeader;
  headerSource: LineSource;
  /** Every record, each with the one that takes its place in the tree. */
  records: [before: EntryRecord, after: EntryRecord][];
  /** How many entries could not be copied. */
  lost: number;
}

/** Makes the new file, locked, for the session of `oldPath`; `read` as for `relocatedLines`. */
export function continueInNewFile(
  oldPath: string,
  cwd: string,
  records: readonly EntryRecord[],
  read: (record: EntryRecord) => string,
  now: Date,
): Relocation {
  const { kept, lost } = relocatedLines(records, read);
  const header = headerOf(newSessionId(), now.toISOString(), cwd, oldPath);
  const headerText = JSON.stringify(header);
  const path = join(dirname(oldPath), sessionFileName(now, header.id));
  let created: { file: SessionFile; offsets: number[] };
  try {
    created = SessionFile.create(path, [headerText, ...kept.map((k) => k.text)]);
  } catch (error) {
    throw error instanceof SessionWriteError ? error : new SessionWriteError(path, error);
  }
  const moved = kept.map(({ record, text }, index): [EntryRecord, EntryRecord] => [
    record,
    writtenRecord(record, created.offsets[index + 1]!, text, index + 2),
  ]);
  // Gone with the old file: still in the tree (its children hang on it), never read again.
  const gone = lost.map((record): [EntryRecord, EntryRecord] => [record, { ...record, invalid: true, source: { kind: "text", text: "" } }]);
  return {
    file: created.file,
    header,
    headerSource: { kind: "file", offset: 0, length: Buffer.byteLength(headerText) },
    records: [...moved, ...gone],
    lost: lost.length,
  };
}
