/** Small text helpers shared by the slash commands: one-line previews, ages, token counts. */
import { terminalSafe } from "../../../util/terminal-safe.ts";

/** The first non-blank line of `text`, shortened to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 70): string {
  // Names, messages and descriptions from outside pig: their controls shown (terminal-safe.ts).
  const line = terminalSafe(text.split("\n").find((l) => l.trim()) ?? "").trim().replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "just now", "5m ago", "3h ago", "2d ago", then a date: enough to tell sessions apart. */
export function formatAge(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days}d ago`;
  return then.toISOString().slice(0, 10);
}

/** 950 → "950", 12_345 → "12.3k", 1_200_000 → "1.2M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** Whether every whitespace-separated word of `query` occurs in `text` (case-insensitive). */
export function matchesWords(query: string, text: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
