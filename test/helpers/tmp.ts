/**
 * Temporary directories, removed once every test file has run (test/helpers/cleanup.ts, a
 * preload). An `afterAll` here would be registered once, for whichever test file first imported
 * this module — all test files share one process — and the directories of the others stayed.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** Removes every directory `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A directory still in use (a mount a test left) stays; the rest go.
    }
  }
}

export function tempDir(prefix = "pig-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export const FIXTURES = join(import.meta.dir, "..", "fixtures", "pi-0.73.1");
/** Files written by Pi 0.87.1, the version pig follows (same layout and numbering as FIXTURES). */
export const FIXTURES_087 = join(import.meta.dir, "..", "fixtures", "pi-0.87.1");

/** Both sets of fixtures, with the directory each Pi ran in (the paths its files name). */
export const FIXTURE_SETS = [
  { version: "0.73.1", dir: FIXTURES, cwdOf: (name: string) => `/home/dev/fx/${name}/work` },
  { version: "0.87.1", dir: FIXTURES_087, cwdOf: (name: string) => `/home/dev/fx087/${name}/work` },
] as const;

/** A copy of a fixture file in a fresh temp dir, safe to modify. */
export function fixtureCopy(name: string, dir: string = FIXTURES): string {
  const path = join(tempDir(), name);
  cpSync(join(dir, name), path);
  return path;
}
