/**
 * Reading the compact diff that edit reports (`+<n> text`, `-<n> text`, ` <n> text`, ` ... `
 * gaps): how many lines changed, and a preview of the changed hunks with one line of context
 * around each change, the rest of the context folded into `⋯`.
 */

/** A changed or context line's sign and line number (`-12 `): a wrapped line's rows hang past it. */
export const DIFF_LINE_HEAD = /^[-+ ] *\d+ /;

export type DiffLineKind = "added" | "removed" | "context" | "gap";

/** What a line of the compact diff is. */
export function kindOf(line: string): DiffLineKind {
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return line.trim() === "..." ? "gap" : "context";
}

export function countChanges(lines: readonly string[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    const kind = kindOf(line);
    if (kind === "added") added++;
    else if (kind === "removed") removed++;
  }
  return { added, removed };
}

/** At most `max` lines of the hunks; `hiddenChanges` counts the changed lines left out. */
export function hunkPreview(lines: readonly string[], max: number, context = 1): { lines: string[]; hiddenChanges: number } {
  const kinds = lines.map(kindOf);
  const changed = (i: number) => kinds[i] === "added" || kinds[i] === "removed";
  const near = (i: number) => {
    for (let d = -context; d <= context; d++) if (changed(i + d)) return true;
    return false;
  };
  const picked: { line: string; change: boolean }[] = [];
  lines.forEach((line, i) => {
    if (changed(i)) picked.push({ line, change: true });
    else if (kinds[i] === "context" && near(i)) picked.push({ line, change: false });
    else if (picked.length > 0 && picked.at(-1)!.line !== "⋯") picked.push({ line: "⋯", change: false });
  });
  while (picked.at(-1)?.line === "⋯") picked.pop();
  const shown = picked.slice(0, max);
  const hiddenChanges = picked.slice(max).filter((p) => p.change).length;
  return { lines: shown.map((p) => p.line), hiddenChanges };
}
