/** Installing packages from local git repositories (file:// URLs) and through an npm command, with real git and processes. */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPackage, npmArgs, packageDir, PackageInstallError, packageManagerName, removePackage, updatePackage, type InstallPlace } from "../../src/resources/package-install.ts";
import { parsePackageSource } from "../../src/resources/package-source.ts";
import { git } from "../helpers/git-repo.ts";
import { tempDir } from "../helpers/tmp.ts";


/** A repository with two commits, the first tagged v1. */
function repository(files: Record<string, string> = {}): string {
  const repo = tempDir("pig-pkg-repo-");
  git(repo, "init", "--quiet", "-b", "main");
  writeFileSync(join(repo, "version.txt"), "one\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git(repo, "add", "-A");
  git(repo, "commit", "--quiet", "-m", "one");
  git(repo, "tag", "v1");
  writeFileSync(join(repo, "version.txt"), "two\n");
  git(repo, "commit", "--quiet", "-am", "two");
  return repo;
}

function place(scope: "user" | "project" = "user"): InstallPlace {
  const root = tempDir("pig-pkg-place-");
  return { agentDir: join(root, "agent"), cwd: join(root, "project"), scope };
}

const leftovers = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.includes(".partial-")) : []);

describe("git packages", () => {
  test("a file:// repository installs at its newest commit, or at a pinned ref, under git/<host>/<path>", async () => {
    const repo = repository();
    const where = place();
    const steps: string[] = [];
    const latest = parsePackageSource(`file://${repo}`, "/");
    const dir = await installPackage(latest, where, { step: (s) => steps.push(s) });
    expect(dir).toBe(join(where.agentDir, "git", "file", ...repo.slice(1).split("/")));
    expect(readFileSync(join(dir, "version.txt"), "utf8")).toBe("two\n");
    expect(steps).toEqual([`cloning file://${repo}`]);

    const projectPlace = { ...where, scope: "project" as const };
    const pinned = parsePackageSource(`file://${repo}@v1`, "/");
    const pinnedDir = await installPackage(pinned, projectPlace);
    expect(pinnedDir.startsWith(join(where.cwd, ".pig", "git"))).toBe(true);
    expect(readFileSync(join(pinnedDir, "version.txt"), "utf8")).toBe("one\n");
  });

  test("a failing clone leaves nothing behind and says what git said", async () => {
    const where = place();
    const missing = parsePackageSource(`file://${tempDir("pig-pkg-empty-")}/nothing-here`, "/");
    const error = await installPackage(missing, where).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PackageInstallError);
    expect((error as Error).message).toContain("cloning file://");
    expect((error as PackageInstallError).outputTail.length).toBeGreaterThan(0);
    const dir = packageDir(missing, where);
    expect(existsSync(dir)).toBe(false);
    expect(leftovers(join(dir, ".."))).toEqual([]);
  });

  test("a checkout with a package.json runs the npm command in it; when that fails the checkout is rolled back", async () => {
    const repo = repository({ "package.json": '{"name":"p","version":"1.0.0"}\n' });
    const bin = tempDir("pig-pkg-bin-");
    const okNpm = join(bin, "ok-npm");
    writeFileSync(okNpm, '#!/bin/sh\necho "ran: $*" > npm-ran.txt\n');
    const badNpm = join(bin, "bad-npm");
    writeFileSync(badNpm, '#!/bin/sh\necho "npm ERR! no network" >&2\nexit 3\n');
    chmodSync(okNpm, 0o755);
    chmodSync(badNpm, 0o755);

    const source = parsePackageSource(`file://${repo}`, "/");
    const good = place();
    const dir = await installPackage(source, good, { npmCommand: [okNpm] });
    expect(readFileSync(join(dir, "npm-ran.txt"), "utf8")).toBe("ran: install\n");

    const bad = place();
    const error = (await installPackage(source, bad, { npmCommand: [badNpm] }).catch((e: unknown) => e)) as PackageInstallError;
    expect(error).toBeInstanceOf(PackageInstallError);
    expect(error.reason).toBe(`installing its npm dependencies failed (${badNpm} exit 3)`);
    expect(error.outputTail).toBe("npm ERR! no network");
    expect(existsSync(packageDir(source, bad))).toBe(false);
    expect(leftovers(join(packageDir(source, bad), ".."))).toEqual([]);
  });

  test("update moves an unpinned checkout to the newest commit and skips a pinned one; remove takes it away", async () => {
    const repo = repository();
    const where = place();
    const latest = parsePackageSource(`file://${repo}`, "/");
    const dir = await installPackage(latest, where);
    writeFileSync(join(repo, "version.txt"), "three\n");
    git(repo, "commit", "--quiet", "-am", "three");
    expect(await updatePackage(latest, where)).toBe(true);
    expect(readFileSync(join(dir, "version.txt"), "utf8")).toBe("three\n");

    const pinned = parsePackageSource(`file://${repo}@v1`, "/");
    const projectPlace = { ...where, scope: "project" as const };
    const pinnedDir = await installPackage(pinned, projectPlace);
    expect(await updatePackage(pinned, projectPlace)).toBe(false);
    expect(readFileSync(join(pinnedDir, "version.txt"), "utf8")).toBe("one\n");

    await removePackage(latest, where);
    expect(existsSync(dir)).toBe(false);
  });
});

/** A stand-in for npm: `install <name>[@version]` makes node_modules/<name> with that version, and logs the call. */
const FAKE_NPM =
  '#!/bin/sh\nspec="$2"; name="${spec%@*}"; [ -z "$name" ] && name="$spec"; version="${spec#*@}"; [ "$version" = "$spec" ] && version=0.0.1\n[ "$spec" = broken ] && { echo "npm ERR! 404 broken" >&2; echo "{}" > package.json; exit 1; }\necho "$spec" >> calls.txt\nmkdir -p "node_modules/$name" && echo "$spec" > "node_modules/$name/spec.txt" && printf \'{"name":"%s","version":"%s"}\' "$name" "$version" > "node_modules/$name/package.json"\n';

describe("npm packages", () => {
  test("the package manager is told never to install peers, each in its own words", () => {
    expect(packageManagerName(["npm"])).toBe("npm");
    expect(packageManagerName(["/opt/bin/pnpm.cmd"])).toBe("pnpm");
    expect(packageManagerName(["mise", "exec", "node@22", "--", "bun"])).toBe("bun");
    expect(npmArgs("install", "pi-x@1.0.0", "/r", ["npm"])).toEqual(["install", "pi-x@1.0.0", "--prefix", "/r", "--legacy-peer-deps", "--no-audit", "--no-fund"]);
    expect(npmArgs("uninstall", "pi-x", "/r", ["npm"])).toEqual(["uninstall", "pi-x", "--prefix", "/r", "--legacy-peer-deps", "--no-audit", "--no-fund"]);
    expect(npmArgs("install", "pi-x", "/r", ["bun"])).toEqual(["install", "pi-x", "--cwd", "/r", "--omit=peer"]);
    expect(npmArgs("install", "pi-x", "/r", ["pnpm"])).toContain("--config.auto-install-peers=false");
    expect(npmArgs("install", "pi-x", "/r", ["yarn-wrapper"])).toEqual(["install", "pi-x", "--prefix", "/r", "--legacy-peer-deps"]);
  });

  test("install through the npm command in the scope's npm folder; a failure puts its manifest back", async () => {
    const bin = tempDir("pig-pkg-bin-");
    const fakeNpm = join(bin, "npm");
    writeFileSync(fakeNpm, FAKE_NPM);
    chmodSync(fakeNpm, 0o755);
    const where = place();
    const source = parsePackageSource("npm:pi-thing@1.2.3", "/");
    const dir = await installPackage(source, where, { npmCommand: [fakeNpm] });
    expect(dir).toBe(join(where.agentDir, "npm", "node_modules", "pi-thing"));
    expect(readFileSync(join(dir, "spec.txt"), "utf8")).toBe("pi-thing@1.2.3\n");
    const manifest = readFileSync(join(where.agentDir, "npm", "package.json"), "utf8");

    const broken = parsePackageSource("npm:broken", "/");
    const error = (await installPackage(broken, where, { npmCommand: [fakeNpm] }).catch((e: unknown) => e)) as PackageInstallError;
    expect(error).toBeInstanceOf(PackageInstallError);
    expect(error.outputTail).toBe("npm ERR! 404 broken");
    expect(readFileSync(join(where.agentDir, "npm", "package.json"), "utf8")).toBe(manifest);
  });

  test("a pinned exact version other than the installed one is installed again; the same one, or a range, is not", async () => {
    const bin = tempDir("pig-pkg-bin-");
    const fakeNpm = join(bin, "npm");
    writeFileSync(fakeNpm, FAKE_NPM);
    chmodSync(fakeNpm, 0o755);
    const where = place();
    const calls = () => readFileSync(join(where.agentDir, "npm", "calls.txt"), "utf8");
    const install = (raw: string) => installPackage(parsePackageSource(raw, "/"), where, { npmCommand: [fakeNpm] });
    const dir = await install("npm:pi-thing@1.2.3");
    await install("npm:pi-thing@1.2.3");
    expect(calls()).toBe("pi-thing@1.2.3\n");
    await install("npm:pi-thing@1.2.4");
    expect(calls()).toBe("pi-thing@1.2.3\npi-thing@1.2.4\n");
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe("1.2.4");
    await install("npm:pi-thing@^1.0.0");
    await install("npm:pi-thing");
    expect(calls()).toBe("pi-thing@1.2.3\npi-thing@1.2.4\n");
  });

  test("a local path is used where it is, and one that does not exist is an error", async () => {
    const pkg = tempDir("pig-pkg-local-");
    mkdirSync(join(pkg, "skills"));
    expect(await installPackage(parsePackageSource(pkg, "/"), place())).toBe(pkg);
    const error = await installPackage(parsePackageSource("./nope", pkg), place()).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`./nope: ${join(pkg, "nope")} does not exist`);
  });
});
