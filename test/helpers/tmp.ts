/** Temporary directories removed after each test file. */
import { afterAll } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = "pig-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export const FIXTURES = join(import.meta.dir, "..", "fixtures", "pi-0.73.1");

/** A copy of a fixture file in a fresh temp dir, safe to modify. */
export function fixtureCopy(name: string): string {
  const path = join(tempDir(), name);
  cpSync(join(FIXTURES, name), path);
  return path;
}
