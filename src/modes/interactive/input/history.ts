/**
 * Prompt history shared by all sessions: `<agentDir>/prompt-history.jsonl`, one JSON string per
 * line, only ever appended to (several pig processes may run at once; appends of one short line
 * do not interleave). Reading tolerates a torn last line from a crash, skips anything that is not
 * a string, drops consecutive duplicates and keeps the newest `limit` entries. History is a
 * convenience, so I/O errors never reach the user.
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";

export const HISTORY_FILE = "prompt-history.jsonl";
export const HISTORY_LIMIT = 1000;

export function historyPath(agentDir: string): string {
  return join(agentDir, HISTORY_FILE);
}

/** The entries of a history file's text, oldest first. */
export function parseHistory(text: string, limit = HISTORY_LIMIT): string[] {
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a torn or foreign line
    }
    if (typeof value !== "string" || !value.trim()) continue;
    if (entries[entries.length - 1] === value) continue;
    entries.push(value);
  }
  return entries.length > limit ? entries.slice(entries.length - limit) : entries;
}

export function readHistory(file: string, limit = HISTORY_LIMIT): string[] {
  try {
    return parseHistory(readFileSync(file, "utf8"), limit);
  } catch {
    return [];
  }
}

/** Whether the file exists, is not empty and does not end with a newline (a torn last line). */
function endsMidLine(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export class PromptHistory {
  private readonly items: string[];

  constructor(
    readonly file: string,
    private readonly limit = HISTORY_LIMIT,
  ) {
    this.items = readHistory(file, limit);
  }

  static forAgentDir(agentDir: string): PromptHistory {
    return new PromptHistory(historyPath(agentDir));
  }

  /** Oldest first. */
  entries(): readonly string[] {
    return this.items;
  }

  /** Records a submitted prompt (blank ones and repeats of the last entry are skipped). */
  add(text: string): void {
    if (!text.trim() || this.items[this.items.length - 1] === text) return;
    this.items.push(text);
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      // A torn line left by a crash would swallow this entry too; start it on a fresh line.
      const separator = endsMidLine(this.file) ? "\n" : "";
      appendFileSync(this.file, `${separator}${JSON.stringify(text)}\n`);
    } catch {
      // Unwritable agent dir: the entry still lives for this session.
    }
  }
}
