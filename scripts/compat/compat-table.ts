// The Markdown the extension and package comparisons print, and writing it into the docs between
// the markers `<!-- compat:NAME -->` and `<!-- /compat:NAME -->`.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Explained } from "./known-differences.ts";

const escapeCell = (text: string) => text.replaceAll("|", "\\|").replace(/\s+/g, " ");

/** "the same", or each difference by part, the explained ones with why. */
export function differencesCell(result: Explained): string {
  if (result.unexplained.length === 0 && result.explained.length === 0) return "the same";
  const parts = [
    ...result.unexplained.map((d) => `**${d.part}**: ${escapeCell(d.detail)}`),
    ...result.explained.map((e) => `${e.difference.part}: ${escapeCell(e.difference.detail)} (${e.why})`),
  ];
  return parts.join("; ");
}

/** When a run was made and how long it took (kept in its --json file, for a comparison made again from it). */
export interface RunTime {
  day: string;
  minutes: string;
}

export function runTime(startedAt: number): RunTime {
  return { day: new Date().toISOString().slice(0, 10), minutes: ((Date.now() - startedAt) / 60_000).toFixed(1) };
}

/** The line above a table: the command that made it, against what, when and how long it took. */
export function runLine(command: string, against: string, time: RunTime): string {
  return `Made by \`npm run build && ${command}\` against ${against} on ${time.day} (${time.minutes} min).`;
}

export function replaceDocsTable(docsPath: string, name: string, markdown: string): void {
  const path = join(resolve(import.meta.dir, "..", ".."), docsPath);
  const text = readFileSync(path, "utf8");
  const open = `<!-- compat:${name} -->`;
  const close = `<!-- /compat:${name} -->`;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from < 0 || to < from) throw new Error(`${docsPath} has no ${open} … ${close} block`);
  writeFileSync(path, `${text.slice(0, from + open.length)}\n${markdown}\n${text.slice(to)}`);
  console.error(`[compat] wrote the table into ${docsPath}`);
}
