/** One writer per session file, across real processes and whatever name each opens it by. */
import { describe, expect, test } from "bun:test";
import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { acquireLockFile } from "../../src/session/lock-file.ts";
import { SessionStore } from "../../src/session/store.ts";
import { runPig } from "../helpers/binary.ts";
import { fixtureCopy, tempDir } from "../helpers/tmp.ts";

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

/** A holder started without waiting: its outcome is "locked" or, when it was refused, its stderr. */
function startHolder(path: string) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "helpers", "hold-lock.ts"), path], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const outcome = (async () => {
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    if (value && new TextDecoder().decode(value) === "locked\n") return "locked";
    await proc.exited;
    return await new Response(proc.stderr).text();
  })();
  return { proc, outcome };
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

  test("a lock left by a killed process never blocks: the kernel let it go with the process", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const child = await holdLock(path);
    child.kill("SIGKILL");
    await child.exited;
    const result = runPig(["sessions", "name", path, "after the kill"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)).toContain('"name":"after the kill"');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test("a lock file beside the session (left by an older pig) is not a lock: it neither blocks nor is removed", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const left = JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-01-01T00:00:00.000Z" });
    writeFileSync(`${path}.lock`, left);
    const store = SessionStore.open(path, { write: true });
    store.close();
    expect(readFileSync(`${path}.lock`, "utf8")).toBe(left);
  });

  test("the real path, a symbolic link and a hard link of one session are one lock", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const dir = dirname(path);
    const symlink = join(dir, "through-a-symlink.jsonl");
    // In a directory of its own: a hard link has no name in common with the session's.
    const hard = join(tempDir("pig-hardlink-"), "hard.jsonl");
    symlinkSync(path, symlink);
    linkSync(path, hard);
    const before = readFileSync(path, "utf8");
    for (const [held, others] of [
      [path, [symlink, hard]],
      [hard, [path, symlink]],
      [symlink, [hard, path]],
    ] as const) {
      const child = await holdLock(held);
      try {
        for (const other of others) {
          const result = runPig(["sessions", "name", other, "second writer"]);
          expect(result.code).toBe(1);
          expect(result.stderr).toContain(`Session ${other} is in use by pig process ${child.pid} on ${hostname()}`);
          expect(() => SessionStore.open(other, { write: true })).toThrow(`pig process ${child.pid}`);
        }
        expect(readFileSync(path, "utf8")).toBe(before);
      } finally {
        child.stdin.end();
        await child.exited;
      }
    }
    expect(runPig(["sessions", "name", symlink, "after"]).code).toBe(0);
    expect(readFileSync(hard, "utf8")).toContain('"name":"after"');
  });

  test("of writers starting together on the session's three names, with a dead writer's lock file beside it, exactly one gets it", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const symlink = join(dirname(path), "link.jsonl");
    symlinkSync(path, symlink);
    const hard = join(dirname(path), "hard.jsonl");
    linkSync(path, hard);
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: gone.pid, host: hostname(), since: "2026-01-01T00:00:00.000Z" }));
    const names = [path, symlink, hard, path, symlink, hard];
    const children = names.map((name) => startHolder(name));
    const outcomes = await Promise.all(children.map((child) => child.outcome));
    const winners = outcomes.filter((o) => o === "locked");
    expect(winners).toHaveLength(1);
    const winner = children[outcomes.indexOf("locked")]!;
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome === "locked") continue;
      expect(outcome).toContain(`Session ${names[index]} is in use by pig process ${winner.proc.pid}`);
    }
    winner.proc.stdin.end();
    expect(await winner.proc.exited).toBe(0);
  });
});

describe("the lock file, where flock is missing", () => {
  test("a lock whose owner is gone, or whose pid now belongs to another process, is taken over", async () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    for (const owner of [{ pid: gone.pid }, { pid: 1, started: "not-its-start-time" }]) {
      writeFileSync(`${path}.lock`, JSON.stringify({ ...owner, host: hostname(), since: "2026-01-01T00:00:00.000Z" }));
      const lock = acquireLockFile(path);
      expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(process.pid);
      lock.release();
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  });

  test("a live owner's lock is never taken over", () => {
    const path = fixtureCopy("01-basic-text.jsonl");
    const live = JSON.stringify({ pid: 1, host: hostname(), since: "2026-01-01T00:00:00.000Z" });
    writeFileSync(`${path}.lock`, live);
    expect(() => acquireLockFile(path)).toThrow(`Session ${path} is in use by pig process 1 on ${hostname()}`);
    expect(readFileSync(`${path}.lock`, "utf8")).toBe(live);
  });
});
