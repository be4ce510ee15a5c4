/** How `pig sessions` and its error messages write a session in one line. */
import { terminalSafe } from "../util/terminal-safe.ts";

/** `text` on one line (runs of white space as one space), cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  // Session names and messages: their controls shown (terminal-safe.ts), so the line stays one line.
  const flat = terminalSafe(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A time to the minute, in UTC: `2026-11-30 10:00`. */
export function minuteOf(time: Date): string {
  return time.toISOString().replace("T", " ").slice(0, 16);
}
