/**
 * The cache of `-e npm:…` / `-e git:…` packages is the user's own: `<pig's cache folder>/extensions`,
 * 0700 and checked before a package in it is run. A package another local user put in the old
 * shared folder (`<tmp>/pig-extensions`), or in a cache folder of theirs that root's environment
 * still names, is never run.
 */
import { expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePackageSource } from "../../src/resources/package-source.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { git } from "../helpers/git-repo.ts";
import { describeAsOtherUser, type OtherUser } from "../helpers/other-user.ts";
import { tempDir } from "../helpers/tmp.ts";

const { world } = extensionWorlds();

/** A package whose extension, once loaded, writes `marker`. */
function writePackage(dir: string, marker: string): void {
  mkdirSync(join(dir, "extensions"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "marker-pkg", version: "1.0.0", pi: { extensions: ["extensions/marker.ts"] } }));
  writeFileSync(join(dir, "extensions", "marker.ts"), `import { writeFileSync } from "node:fs";\nexport default function () {\n  writeFileSync(${JSON.stringify(marker)}, "ran");\n}\n`);
}

/** A git repository holding a package that writes `marker`; returns its file:// URL. */
function packageRepo(marker: string): string {
  const repo = tempDir("pig-cache-src-");
  writePackage(repo, marker);
  git(repo, "init", "--quiet", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "--quiet", "-m", "one");
  return `file://${repo}`;
}

/** Where a git source is checked out inside a packages folder. */
function gitDirIn(root: string, url: string): string {
  const source = parsePackageSource(url, "/");
  if (source.kind !== "git") throw new Error(`${url} is not a git source`);
  return join(root, "git", ...source.dir.split("/"));
}

/** The other user's copy of a package at `dir`, its folders theirs. */
function plant(user: OtherUser, dir: string, marker: string): void {
  writePackage(dir, marker);
  for (const path of [dir, join(dir, "extensions"), join(dir, "package.json"), join(dir, "extensions", "marker.ts")]) chownSync(path, user.uid, user.gid);
}

test("a remote -e package goes to the user's own 0700 cache and is reused from there", async () => {
  const marks = tempDir("pig-cache-marks-");
  const url = packageRepo(join(marks, "genuine"));
  const w = await world();
  const first = await w.run(["-p", "-e", url, "hi"]);
  expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: `pig: -e ${url}: cloning ${url}\npig: -e ${url}: note: npm runs the install scripts of ${url} and its dependencies (--ignore-scripts skips them)\npig: -e ${url}: installing its npm dependencies\n` });
  expect(existsSync(join(marks, "genuine"))).toBe(true);
  const root = join(w.agentDir, ".cache", "pig", "extensions");
  expect(statSync(root).mode & 0o777).toBe(0o700);
  expect(existsSync(join(gitDirIn(root, url), "package.json"))).toBe(true);
  rmSync(join(marks, "genuine"));
  const again = await w.run(["-p", "-e", url, "hi"]);
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
  expect(existsSync(join(marks, "genuine"))).toBe(true);
});

test("a cache folder open to other users is refused, not used", async () => {
  const marks = tempDir("pig-cache-marks-");
  const url = packageRepo(join(marks, "genuine"));
  const w = await world();
  const root = join(w.agentDir, ".cache", "pig", "extensions");
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o777);
  const run = await w.run(["-p", "-e", url, "hi"]);
  expect(run.stderr).toContain(`pig: -e ${url}: pig's package cache is not safe to use: ${root} is open to other users (mode 777, not 700)`);
  expect(run.code).toBe(1);
  expect(existsSync(join(marks, "genuine"))).toBe(false);
});

describeAsOtherUser("another user's packages", (user) => {
  test("a package the other user planted in the old shared <tmp>/pig-extensions is not run", async () => {
    const marks = tempDir("pig-cache-marks-");
    chmodSync(marks, 0o777);
    const url = packageRepo(join(marks, "genuine"));
    const planted = gitDirIn(join(tmpdir(), "pig-extensions"), url);
    try {
      plant(user, planted, join(marks, "planted"));
      const w = await world();
      const run = await w.run(["-p", "-e", url, "hi"]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: `pig: -e ${url}: cloning ${url}\npig: -e ${url}: note: npm runs the install scripts of ${url} and its dependencies (--ignore-scripts skips them)\npig: -e ${url}: installing its npm dependencies\n` });
      expect(existsSync(join(marks, "genuine"))).toBe(true);
      expect(existsSync(join(marks, "planted"))).toBe(false);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  test("XDG_CACHE_HOME in a folder of the other user's (kept by sudo -E): pig refuses it and runs nothing from it", async () => {
    const marks = tempDir("pig-cache-marks-");
    chmodSync(marks, 0o777);
    const url = packageRepo(join(marks, "genuine"));
    const theirs = join(user.home, "cache");
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, user.uid, user.gid);
    const root = join(theirs, "pig", "extensions");
    mkdirSync(root, { recursive: true, mode: 0o700 });
    for (const dir of [join(theirs, "pig"), root]) chownSync(dir, user.uid, user.gid);
    plant(user, gitDirIn(root, url), join(marks, "planted"));
    const w = await world();
    const run = await w.run(["-p", "-e", url, "hi"], { env: { XDG_CACHE_HOME: theirs } });
    expect(run.stderr).toContain(`pig: -e ${url}: pig's cache folder is not safe to use: `);
    expect(run.stderr).toContain(`belongs to uid ${user.uid}, not 0`);
    expect(run.code).toBe(1);
    expect(existsSync(join(marks, "planted"))).toBe(false);
  });
});
