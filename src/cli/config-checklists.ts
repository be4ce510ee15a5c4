/**
 * The questions of `pig config`: one @clack/prompts checklist per package (and one for the
 * settings file's own resources), each option a file named relative to the package root and
 * labelled with its kind, ticked when it loads now; then a summary of what changes.
 */
import { isCancel, multiselect } from "@clack/prompts";
import pc from "picocolors";
import type { ResourceKind } from "../resources/resource-paths.ts";
import { patternPath } from "../resources/resource-toggles.ts";
import { terminalSafe } from "../util/terminal-safe.ts";

/** The order kinds are shown in. */
export const SHOWN_KINDS: readonly ResourceKind[] = ["extensions", "skills", "prompts", "themes"];

const WORDS: Record<ResourceKind, string> = { extensions: "extension", skills: "skill", prompts: "prompt", themes: "theme" };
const WIDTH = Math.max(...Object.values(WORDS).map((w) => w.length));

export type ByKind<T> = Record<ResourceKind, T>;

export interface Checklist {
  /** The package source as written, or what the settings file's own resources are. */
  title: string;
  /** The folder files are named relative to (the package root, the settings folder). */
  base: string;
  files: ByKind<readonly string[]>;
  enabled: ByKind<ReadonlySet<string>>;
}

function label(kind: ResourceKind, path: string, base: string): string {
  // A package names its own files: shown terminal-safe.
  return `${pc.dim(WORDS[kind].padEnd(WIDTH))} ${terminalSafe(patternPath(path, base))}`;
}

/** The files the person leaves ticked, by kind; undefined when they cancelled (Escape, Ctrl+C). */
export async function askChecklist(list: Checklist): Promise<ByKind<Set<string>> | undefined> {
  const items = SHOWN_KINDS.flatMap((kind) => list.files[kind].map((path) => ({ kind, path })));
  const answer = await multiselect({
    message: terminalSafe(list.title),
    options: items.map(({ kind, path }, value) => ({ value, label: label(kind, path, list.base) })),
    initialValues: items.flatMap(({ kind, path }, value) => (list.enabled[kind].has(path) ? [value] : [])),
    required: false,
  });
  if (isCancel(answer)) return undefined;
  const chosen: ByKind<Set<string>> = { extensions: new Set(), skills: new Set(), prompts: new Set(), themes: new Set() };
  for (const value of answer) {
    const item = items[value];
    if (item) chosen[item.kind].add(item.path);
  }
  return chosen;
}

/** What the choice turns on and off, one line per file; empty when nothing changes. */
export function changeLines(list: Checklist, chosen: ByKind<ReadonlySet<string>>): string[] {
  return SHOWN_KINDS.flatMap((kind) =>
    list.files[kind].flatMap((path) => {
      const before = list.enabled[kind].has(path);
      const after = chosen[kind].has(path);
      if (before === after) return [];
      return [`  ${after ? pc.green("on ") : pc.red("off")}  ${label(kind, path, list.base)}`];
    }),
  );
}
