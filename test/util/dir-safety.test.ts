import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ancestorProblem, type DirFacts, ensurePrivateDir, privateDirProblem, safeRealDir, UnsafeDirError } from "../../src/util/dir-safety.ts";
import { describeAsOtherUser } from "../helpers/other-user.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = (uid: number, mode: number, extra: Partial<DirFacts> = {}): DirFacts => ({ isDirectory: true, isSymbolicLink: false, uid, mode: 0o40000 | mode, ...extra });

describe("a directory on the way to a private one", () => {
  test("is safe when owned by the user or root and writable by its owner alone", () => {
    expect(ancestorProblem("/home/u", dir(1000, 0o755), 1000)).toBeUndefined();
    expect(ancestorProblem("/", dir(0, 0o755), 1000)).toBeUndefined();
    expect(ancestorProblem("/run/user/1000", dir(1000, 0o700), 1000)).toBeUndefined();
  });

  test("a sticky directory writable by all (like /tmp) is safe: others cannot move what is ours in it", () => {
    expect(ancestorProblem("/tmp", dir(0, 0o1777), 1000)).toBeUndefined();
  });

  test("another user's directory is refused, also for root", () => {
    expect(ancestorProblem("/run/user/1001", dir(1001, 0o700), 0)).toBe("/run/user/1001 belongs to uid 1001, not 0");
    expect(ancestorProblem("/home/v", dir(1001, 0o755), 1000)).toBe("/home/v belongs to uid 1001, not 1000");
  });

  test("a directory others may write to without the sticky bit is refused, even root's", () => {
    expect(ancestorProblem("/shared", dir(0, 0o777), 1000)).toBe("/shared is writable by other users (mode 777)");
    expect(ancestorProblem("/srv/team", dir(1000, 0o775), 1000)).toBe("/srv/team is writable by other users (mode 775)");
  });

  test("a link or a file is refused", () => {
    expect(ancestorProblem("/x", dir(1000, 0o700, { isSymbolicLink: true }), 1000)).toBe("/x is a symbolic link");
    expect(ancestorProblem("/x", dir(1000, 0o600, { isDirectory: false }), 1000)).toBe("/x is not a directory");
  });
});

describe("a private directory", () => {
  test("must be the user's own, a real directory, and closed to group and others", () => {
    expect(privateDirProblem("/p", dir(1000, 0o700), 1000)).toBeUndefined();
    expect(privateDirProblem("/p", dir(0, 0o700), 1000)).toBe("/p belongs to uid 0, not 1000");
    expect(privateDirProblem("/p", dir(1000, 0o750), 1000)).toBe("/p is open to other users (mode 750, not 700)");
    expect(privateDirProblem("/p", dir(1000, 0o700, { isSymbolicLink: true }), 1000)).toBe("/p is a symbolic link");
  });

  test("is made 0700 whatever the umask, and an existing one of wider mode is refused, not narrowed", () => {
    const base = tempDir("pig-private-");
    const fresh = join(base, "fresh");
    const old = process.umask(0);
    try {
      ensurePrivateDir(fresh);
    } finally {
      process.umask(old);
    }
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    const wide = join(base, "wide");
    mkdirSync(wide);
    chmodSync(wide, 0o755);
    expect(() => ensurePrivateDir(wide)).toThrow(UnsafeDirError);
    expect(() => ensurePrivateDir(wide)).toThrow(`${wide} is open to other users (mode 755, not 700)`);
    expect(statSync(wide).mode & 0o777).toBe(0o755);
  });

  test("a link in the way is resolved: the safe path returned is the real one", () => {
    const base = tempDir("pig-private-link-");
    const real = join(base, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(base, "link"));
    expect(safeRealDir(join(base, "link"))).toEqual({ path: real });
  });
});

describeAsOtherUser("private directories and another user", (user) => {
  test("a directory of the other user's on the way makes the whole path unsafe for root", () => {
    const base = tempDir("pig-private-other-");
    chmodSync(base, 0o755);
    const theirs = join(base, "theirs");
    mkdirSync(join(theirs, "deeper"), { recursive: true });
    chownSync(theirs, user.uid, user.gid);
    expect(safeRealDir(join(theirs, "deeper"))).toEqual({ problem: `${theirs} belongs to uid ${user.uid}, not 0` });
  });
});
