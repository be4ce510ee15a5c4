/**
 * The standard unified patch of an edit (`--- path`, `+++ path`, `@@ -a,b +c,d @@` hunks with
 * `context` unchanged lines around each change), as `edit` reports it in `details.patch` since
 * Pi 0.87: the form `patch`, `git apply` and review tools read. Built on the same line diff as
 * the compact `details.diff`.
 */
import { diffParts, type Op } from "./edit-diff.ts";

interface Line {
  op: Op;
  text: string;
  /** Whether the line ends with a line break (the last line of a file may not). */
  eol: boolean;
  /** Lines of the old and of the new text before this one. */
  oldBefore: number;
  newBefore: number;
}

function linesOf(oldText: string, newText: string): Line[] {
  const out: Line[] = [];
  let oldBefore = 0;
  let newBefore = 0;
  for (const part of diffParts(oldText, newText)) {
    for (const raw of part.lines) {
      const eol = raw.endsWith("\n");
      out.push({ op: part.op, text: eol ? raw.slice(0, -1) : raw, eol, oldBefore, newBefore });
      if (part.op !== "added") oldBefore++;
      if (part.op !== "removed") newBefore++;
    }
  }
  return out;
}

const MARK: Record<Op, string> = { equal: " ", removed: "-", added: "+" };

function hunkText(lines: readonly Line[]): string {
  const first = lines[0]!;
  const oldCount = lines.filter((l) => l.op !== "added").length;
  const newCount = lines.filter((l) => l.op !== "removed").length;
  // An empty side names the line before it (0 at the start of the file), as diff(1) does.
  const oldStart = oldCount === 0 ? first.oldBefore : first.oldBefore + 1;
  const newStart = newCount === 0 ? first.newBefore : first.newBefore + 1;
  const body = lines.map((l) => `${MARK[l.op]}${l.text}\n${l.eol ? "" : "\\ No newline at end of file\n"}`).join("");
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${body}`;
}

export function generateUnifiedPatch(path: string, oldText: string, newText: string, context = 4): string {
  const lines = linesOf(oldText, newText);
  const changed = lines.flatMap((line, index) => (line.op === "equal" ? [] : [index]));
  const hunks: string[] = [];
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i]! - context);
    let last = changed[i]!;
    // Changes closer than two contexts apart share a hunk.
    while (i + 1 < changed.length && changed[i + 1]! - last - 1 <= 2 * context) last = changed[++i]!;
    i++;
    hunks.push(hunkText(lines.slice(start, Math.min(lines.length, last + context + 1))));
  }
  return `--- ${path}\n+++ ${path}\n${hunks.join("")}`;
}
