/** One writer per session file, across real processes. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";
import { runPig } from "../helpers/binary.ts";
import { fixtureCopy } from "../helpers/tmp.ts";

async function holdLock(path: string) {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "..", "helpers", "hold-lock.ts"), path], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toBe("locked\n");
  return child;
}

describe("session lock", () => {
  test("a second process gets a clear message naming the holder, and the file is untouched", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const before = readFileSync(path, "utf8");
    const child = await holdLock(path);
    try {
      const result = runPig(["sessions", "name", path, "clash"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`is in use by pig process ${child.pid} on ${hostname()}`);
      expect(() => SessionStore.open(path, { write: true })).toThrow(`pig process ${child.pid}`);
      expect(readFileSync(path, "utf8")).toBe(before);
      // Reading is not blocked by a writer.
      expect(runPig(["sessions", "show", path, "--json"]).code).toBe(0);
    } finally {
      child.stdin.end();
      await child.exited;
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(runPig(["sessions", "name", path, "after"]).code).toBe(0);
  });

  test("a lock left by a killed process is taken over", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const child = await holdLock(path);
    child.kill("SIGKILL");
    await child.exited;
    expect(existsSync(`${path}.lock`)).toBe(true);
    const result = runPig(["sessions", "name", path, "taken over"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)).toContain('"name":"taken over"');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test("a lock whose pid now belongs to another process is stale", () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    // pid 1 is alive, but it is not the process that wrote this lock.
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: hostname(), started: "not-its-start-time", since: "2026-01-01T00:00:00.000Z" }));
    const store = SessionStore.open(path, { write: true });
    store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
