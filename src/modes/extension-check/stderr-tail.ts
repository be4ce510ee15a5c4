/**
 * What an extension wrote to stderr, kept with the check where it failed: a process that dies at
 * start usually says why there (a missing module, a bad config), and the check's scratch
 * directory with its logs is gone when the report is read. The last lines are enough to act on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckResult } from "./report.ts";

const MAX_LINES = 20;
const MAX_CHARS = 4000;

/** The last lines of `text`, without trailing blank lines; undefined when there is nothing. */
export function lastLines(text: string): string | undefined {
  const lines = text.replace(/\s+$/, "").split("\n");
  const kept = lines.slice(-MAX_LINES).join("\n");
  const cut = kept.length > MAX_CHARS ? `…${kept.slice(-MAX_CHARS)}` : kept;
  if (!cut.trim()) return undefined;
  return lines.length > MAX_LINES ? `… (${lines.length - MAX_LINES} earlier lines)\n${cut}` : cut;
}

/** The tail of one log file, if it exists and holds anything. */
export function logTail(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return lastLines(readFileSync(path, "utf8"));
}

/** The tails of every `*.log` in `dir` (one process each), each after its file's name when there are several. */
export function logsTail(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const tails = readdirSync(dir)
    .filter((name) => name.endsWith(".log"))
    .sort()
    .flatMap((name) => {
      const tail = logTail(join(dir, name));
      return tail ? [{ name, tail }] : [];
    });
  if (tails.length <= 1) return tails[0]?.tail;
  return tails.map(({ name, tail }) => `${name}:\n${tail}`).join("\n");
}

/** Each launch writes the same words when the process fails the same way: they are shown once, at the first check. */
export function withoutRepeatedStderr(results: readonly CheckResult[]): CheckResult[] {
  const shown = new Set<string>();
  return results.map((result) => {
    if (!result.stderr) return result;
    if (!shown.has(result.stderr)) {
      shown.add(result.stderr);
      return result;
    }
    const { stderr: _repeated, ...rest } = result;
    return rest;
  });
}
