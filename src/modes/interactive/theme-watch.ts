/**
 * Watching the theme file in use, so an edit shows without a restart. The folder is watched,
 * not the file: editors that save by writing a new file and renaming it over the old one would
 * leave a watch on the file itself looking at a file that is gone. Changes that arrive together
 * (a save is often several events) are taken as one.
 */
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { Theme, ThemeChoice } from "./theme.ts";

const SETTLE_MS = 50;

/** Calls `changed` after the file at `path` changes; returns what stops watching. */
export function watchThemeFile(path: string, changed: () => void): () => void {
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), { persistent: false });
  } catch {
    // A folder that cannot be watched (gone, no permission): the theme stays as loaded.
    return () => {};
  }
  const name = basename(path);
  let timer: ReturnType<typeof setTimeout> | undefined;
  watcher.on("change", (_event, file) => {
    if (file !== null && String(file) !== name) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      changed();
    }, SETTLE_MS);
  });
  watcher.on("error", () => watcher.close());
  return () => {
    if (timer) clearTimeout(timer);
    watcher.close();
  };
}

export interface ThemeReload {
  /** Loads the theme by name again (the run's theme files, its colour support). */
  load(name: string): ThemeChoice;
  apply(theme: Theme): void;
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Follows the theme file in use: each usable edit is applied and said; one pig cannot use is
 * said and the current theme stays. Returns what stops following.
 */
export function followThemeFile(file: { name: string; path: string } | undefined, reload: ThemeReload): () => void {
  if (!file) return () => {};
  return watchThemeFile(file.path, () => {
    const again = reload.load(file.name);
    if (again.failed) {
      for (const warning of again.warnings) reload.warn(warning.replace(/; using the dark theme$/, "; keeping the current theme"));
      return;
    }
    reload.apply(again.theme);
    reload.info(`Theme "${file.name}" reloaded from ${file.path}.`);
  });
}
