/**
 * `pig install` and npm's lifecycle scripts: pig says, before npm runs, that npm runs the install
 * scripts of what it installs; `--ignore-scripts` (or the `npmIgnoreScripts` setting) passes
 * npm's flag of that name, and then no script runs.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPig } from "../helpers/binary.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { git } from "../helpers/git-repo.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

const { world } = extensionWorlds();

const pig = (w: PigWorld, args: string[]) => runPig(args, { cwd: w.cwd, env: w.env });

/** A package whose postinstall script leaves `marker`. */
function scriptedPackage(marker: string): string {
  const dir = tempDir("pig-pkg-scripts-");
  const manifest = { name: "scripted-pkg", version: "1.0.0", keywords: ["pi-package"], scripts: { postinstall: `touch ${marker}` }, pi: { skills: ["skills"] } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  mkdirSync(join(dir, "skills", "hello"), { recursive: true });
  writeFileSync(join(dir, "skills", "hello", "SKILL.md"), "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n");
  return dir;
}

function tarballOf(dir: string, into: string): string {
  const packed = Bun.spawnSync(["npm", "pack", "--silent", "--pack-destination", into], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  expect(packed.exitCode).toBe(0);
  return join(into, packed.stdout.toString().trim());
}

function gitRepoOf(dir: string): string {
  git(dir, "init", "--quiet", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", "one");
  return `file://${dir}`;
}

const installed = (w: PigWorld) => join(w.agentDir, "npm", "node_modules", "scripted-pkg", "package.json");

test("installing an npm package says that npm runs its install scripts, and npm does", async () => {
  const w = await world();
  const marker = join(w.cwd, "postinstall-ran");
  const tarball = tarballOf(scriptedPackage(marker), w.cwd);
  const result = pig(w, ["install", tarball]);
  expect(result.code).toBe(0);
  const lines = result.stderr.split("\n");
  const note = lines.indexOf(`pig: note: npm runs the install scripts of ${tarball} and its dependencies (--ignore-scripts skips them)`);
  // Said before npm starts.
  expect(note).toBeGreaterThanOrEqual(0);
  expect(lines.findIndex((l) => l.startsWith(`pig: installing ${tarball} with npm`))).toBeGreaterThan(note);
  expect(existsSync(marker)).toBe(true);
});

test("install --ignore-scripts installs the package without running its scripts, and says nothing of them", async () => {
  const w = await world();
  const marker = join(w.cwd, "postinstall-ran");
  const tarball = tarballOf(scriptedPackage(marker), w.cwd);
  const result = pig(w, ["install", "--ignore-scripts", tarball]);
  expect(result.stderr).not.toContain("install scripts");
  expect(result.code).toBe(0);
  expect(JSON.parse(readFileSync(installed(w), "utf8")).name).toBe("scripted-pkg");
  expect(existsSync(marker)).toBe(false);
});

test("the npmIgnoreScripts setting does the same for every install", async () => {
  const w = await world();
  const settingsPath = join(w.agentDir, "settings.json");
  writeFileSync(settingsPath, JSON.stringify({ ...JSON.parse(readFileSync(settingsPath, "utf8")), npmIgnoreScripts: true }));
  const marker = join(w.cwd, "postinstall-ran");
  const tarball = tarballOf(scriptedPackage(marker), w.cwd);
  const result = pig(w, ["install", tarball]);
  expect(result.stderr).not.toContain("install scripts");
  expect(result.code).toBe(0);
  expect(existsSync(installed(w))).toBe(true);
  expect(existsSync(marker)).toBe(false);
});

test("a git package with a package.json: npm install in its checkout is announced, and --ignore-scripts stops its scripts", async () => {
  const w = await world();
  const ran = join(w.cwd, "ran-with-scripts");
  const withScripts = gitRepoOf(scriptedPackage(ran));
  const first = pig(w, ["install", withScripts]);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain(`pig: note: npm runs the install scripts of ${withScripts} and its dependencies (--ignore-scripts skips them)`);
  expect(existsSync(ran)).toBe(true);

  const skipped = join(w.cwd, "ran-without-scripts");
  const withoutScripts = gitRepoOf(scriptedPackage(skipped));
  const second = pig(w, ["install", "--ignore-scripts", withoutScripts]);
  expect(second.code).toBe(0);
  expect(second.stderr).toContain("pig: installing its npm dependencies");
  expect(existsSync(skipped)).toBe(false);
});

test("--ignore-scripts with a command that installs nothing is a usage error naming the flag", async () => {
  const w = await world();
  const result = pig(w, ["remove", "--ignore-scripts", "npm:left-pad"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("remove: --ignore-scripts applies to install and update only");
});
