import { describe, expect, test } from "bun:test";
import { chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProcessDir, removeDeadProcessDirs, userDir } from "../../src/util/process-dir.ts";
import { describeAsOtherUser } from "../helpers/other-user.ts";
import { tempDir } from "../helpers/tmp.ts";

const uid = process.getuid?.() ?? 0;

/** A pid no process has: a child that has already exited (its pid is free until reused). */
function deadPid(): number {
  const proc = Bun.spawnSync(["sh", "-c", "echo $$"], { stdout: "pipe" });
  return Number(proc.stdout.toString().trim());
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

describeAsOtherUser("a private directory someone else made first", (user) => {
  test("is refused, and a process folder is made elsewhere in the base", () => {
    const base = tempDir();
    const planted = join(base, `pig-${uid}`);
    mkdirSync(planted, { mode: 0o777 });
    chownSync(planted, user.uid, user.gid);
    expect(errorOf(() => userDir(base, "pig")).message).toBe(`${planted} belongs to uid ${user.uid}, not ${uid}`);
    const made = createProcessDir(base, "pig");
    expect(made.dir.startsWith(join(base, `pig-${process.pid}-`))).toBe(true);
    expect(statSync(made.dir).uid).toBe(uid);
    expect(statSync(made.dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(planted)).toEqual([]);
    made.remove();
    expect(existsSync(made.dir)).toBe(false);
  });
});

describe("process folders", () => {
  test("each process gets its own private folder in the per-user parent", () => {
    const base = tempDir();
    const made = createProcessDir(base, "pig");
    expect(made.dir).toMatch(new RegExp(`^${join(base, `pig-${uid}`)}/${process.pid}-[0-9a-f]{12}$`));
    expect(statSync(join(base, `pig-${uid}`)).mode & 0o777).toBe(0o700);
    expect(statSync(made.dir).mode & 0o777).toBe(0o700);
    writeFileSync(join(made.dir, "f"), "x");
    made.remove();
    expect(existsSync(made.dir)).toBe(false);
  });

  test("the folders of dead processes are removed; live ones, links and other names stay", () => {
    const parent = tempDir();
    const dead = join(parent, `${deadPid()}-abcdef`);
    const live = join(parent, `${process.pid}-abcdef`);
    const other = join(parent, "notes");
    mkdirSync(dead);
    writeFileSync(join(dead, "bash-1.log"), "old output");
    mkdirSync(live);
    mkdirSync(other);
    const outside = tempDir();
    writeFileSync(join(outside, "keep"), "");
    const link = join(parent, `${deadPid()}-0123`);
    symlinkSync(outside, link);
    removeDeadProcessDirs(parent);
    expect(readdirSync(parent).sort()).toEqual([link, live, other].map((p) => p.slice(parent.length + 1)).sort());
    expect(readdirSync(outside)).toEqual(["keep"]);
  });
});
