/**
 * The standalone installer (install.sh) and `pig update`, against a static file server on loopback
 * with GitHub's release layout holding real archives made by `scripts/release.ts --archives` at
 * two versions. Building them takes ~30 s, so they are kept in the temp directory under a hash of
 * the sources (as release.test.ts does) and a re-run with nothing changed reuses them.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { hostTargetId } from "../../src/cli/build-target.ts";
import { archiveName } from "../../src/util/release-files.ts";
import { withPermissions } from "../helpers/permissions.ts";
import { tempDir } from "../helpers/tmp.ts";
import { userDir } from "../../src/util/process-dir.ts";

// Each test installs or updates a 120 MB binary several times; on two loaded cores that is slow.
setDefaultTimeout(180_000);

const root = join(import.meta.dir, "..", "..");
const OLD = "0.90.1";
const NEW = "0.90.2";
const target = hostTargetId()!;
const archive = archiveName(target);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [relative(root, join(dir, e.name))]));
}

function inputsHash(): string {
  const hash = createHash("sha256").update(`bun ${Bun.version}\n`);
  for (const file of [...filesUnder(join(root, "src")), ...filesUnder(join(root, "scripts", "release")), "scripts/release.ts", "scripts/build-flags.ts", "scripts/bytecode-order.ts", "install.sh", "install.ps1", "package.json"]) {
    hash.update(`${file}\n`).update(readFileSync(join(root, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** The archives of one version in `<cache>/<version>/`, built once per change to the sources. */
function releaseArchives(cache: string, version: string): string {
  const dir = join(cache, version);
  if (existsSync(join(dir, "release.json"))) return dir;
  const work = mkdtempSync(`${dir}.tmp-`);
  const run = Bun.spawnSync([process.execPath, join(root, "scripts", "release.ts"), "--targets", target, "--archives", "--version", version, "--out", work], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`release.ts failed: ${run.stderr.toString()}${run.stdout.toString()}`);
  // Only the archives are kept; the bare binaries are ~120 MB each.
  try {
    renameSync(join(work, "archives"), dir);
  } catch (error) {
    // Another run of this file built the same sources at the same time: its copy serves.
    if (!existsSync(join(dir, "release.json"))) throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** A release to serve: the directory holding its files. */
const releases = new Map<string, string>();
let latest = NEW;
let server: ReturnType<typeof Bun.serve>;
let releaseUrl: string;
const requested: string[] = [];

beforeAll(() => {
  const parent = userDir(tmpdir(), "pig-installer-test");
  const cache = join(parent, inputsHash());
  mkdirSync(cache, { recursive: true });
  releases.set(OLD, releaseArchives(cache, OLD));
  releases.set(NEW, releaseArchives(cache, NEW));
  for (const old of readdirSync(parent)) if (join(parent, old) !== cache && !old.includes(".tmp-")) rmSync(join(parent, old), { recursive: true, force: true });
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      requested.push(path);
      const match = /^\/releases\/(?:latest\/download|download\/v([^/]+))\/([^/]+)$/.exec(path);
      const dir = match ? releases.get(match[1] ?? latest) : undefined;
      if (!match || !dir || !existsSync(join(dir, match[2]!))) return new Response("Not Found", { status: 404 });
      return new Response(Bun.file(join(dir, match[2]!)));
    },
  });
  releaseUrl = `http://127.0.0.1:${server.port}/releases`;
}, 600_000);

afterAll(() => {
  server?.stop(true);
});

/** A copy of release `from`'s files served as `as`, with `change` applied to the copy. */
function alteredRelease(from: string, as: string, change: (dir: string) => void): () => void {
  const dir = tempDir();
  for (const name of readdirSync(releases.get(from)!)) copyFileSync(join(releases.get(from)!, name), join(dir, name));
  change(dir);
  const before = releases.get(as)!;
  releases.set(as, dir);
  return () => {
    releases.set(as, before);
    rmSync(dir, { recursive: true, force: true });
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: Record<string, string>): Promise<Run> {
  const proc = Bun.spawn(argv, { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function world(): { home: string; bin: string; env: Record<string, string> } {
  const home = tempDir("pig-installer-");
  const bin = join(home, "tools", "bin");
  const env = { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin", SHELL: "/bin/bash", PIG_RELEASE_URL: releaseUrl, LANG: "C.UTF-8" };
  return { home, bin, env };
}

const installSh = join(root, "install.sh");

async function installed(bin: string, version: string | undefined, env: Record<string, string>): Promise<Run> {
  const result = await run(["sh", installSh, "--prefix", bin, ...(version ? ["--version", version] : [])], env);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result;
}

async function versionOf(binary: string): Promise<string> {
  const result = await run([binary, "--version"], { PATH: "/usr/bin:/bin" });
  expect(result.code).toBe(0);
  return result.stdout.trim();
}

describe("install.sh", () => {
  test("installs the newest release into --prefix, records how, and tells the exact line to put it on PATH", async () => {
    const { bin, env } = world();
    const result = await installed(bin, undefined, env);
    expect(result.stdout).toContain(`Installing the newest pig for ${target} into ${bin}\n`);
    expect(result.stdout).toContain(`Installed pig ${NEW} to ${bin}/pig\n`);
    expect(result.stdout).toContain(`${bin} is not on your PATH. To add it, run:\n  echo 'export PATH="${bin}:$PATH"' >> ~/.bashrc && . ~/.bashrc\n`);
    expect(await versionOf(join(bin, "pig"))).toBe(NEW);
    expect(JSON.parse(readFileSync(join(bin, ".pig-install.json"), "utf8"))).toEqual({ installedBy: "install.sh", binary: "pig", target, version: NEW, releaseUrl });
    // Nothing staged is left beside it.
    expect(readdirSync(bin).sort()).toEqual([".pig-install.json", "pig"]);
    expect(requested).toContain(`/releases/latest/download/${archive}`);
  });

  test("--version installs that release into ~/.local/bin by default, with wget and openssl when curl and sha256sum are missing", async () => {
    const { home, env } = world();
    // Only the programs the installer may use, without curl, sha256sum and shasum.
    const tools = join(home, "only");
    mkdirSync(tools);
    for (const name of ["sh", "uname", "getconf", "ldd", "grep", "ls", "wget", "openssl", "awk", "tar", "gzip", "mktemp", "rm", "mkdir", "chmod", "cp", "sync", "mv", "cat", "head", "tr", "sed", "basename"]) {
      const path = ["/usr/bin", "/bin"].map((d) => join(d, name)).find((p) => existsSync(p));
      if (path) symlinkSync(path, join(tools, name));
    }
    const local = join(home, ".local", "bin");
    const result = await run(["sh", installSh, "--version", OLD], { ...env, PATH: `${tools}:${local}` });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout).toContain(`Installed pig ${OLD} to ${local}/pig\nRun: pig --help\n`);
    expect(await versionOf(join(local, "pig"))).toBe(OLD);
    expect(requested).toContain(`/releases/download/v${OLD}/${archive}`);
    // Only the temporary files are private: the directories made and the binary get the user's umask.
    expect((statSync(local).mode & 0o777).toString(8)).toBe((0o777 & ~process.umask()).toString(8));
    expect((statSync(join(local, "pig")).mode & 0o777).toString(8)).toBe("755");
  });

  test("a wrong checksum and a corrupted archive are refused, and the pig installed before works byte for byte", async () => {
    const { bin, env } = world();
    await installed(bin, OLD, env);
    const before = sha256(join(bin, "pig"));

    const restoreWrongSum = alteredRelease(NEW, NEW, (dir) => {
      const bytes = readFileSync(join(dir, archive));
      bytes[bytes.length >> 1]! ^= 0xff;
      writeFileSync(join(dir, archive), bytes);
    });
    const wrongSum = await run(["sh", installSh, "--prefix", bin], env);
    restoreWrongSum();
    expect(wrongSum.code).toBe(1);
    expect(wrongSum.stderr).toMatch(new RegExp(`^pig install: wrong checksum for ${archive.replaceAll(".", "\\.")}: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64} \\(nothing was installed\\)\\n$`));

    // The archive is damaged where it was made, so its sum matches.
    const restoreCorrupt = alteredRelease(NEW, NEW, (dir) => {
      const bytes = readFileSync(join(dir, archive)).subarray(0, 4096);
      writeFileSync(join(dir, archive), bytes);
      writeFileSync(join(dir, "SHA256SUMS"), `${createHash("sha256").update(bytes).digest("hex")}  ${archive}\n`);
    });
    const corrupt = await run(["sh", installSh, "--prefix", bin], env);
    restoreCorrupt();
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toStartWith(`pig install: corrupted archive ${archive}: `);
    expect(corrupt.stderr).toEndWith("(nothing was installed)\n");

    expect(sha256(join(bin, "pig"))).toBe(before);
    expect(await versionOf(join(bin, "pig"))).toBe(OLD);
    expect(readdirSync(bin).sort()).toEqual([".pig-install.json", "pig"]);
  });

  test("each other failure says what went wrong: a missing release (with the URL), an unsupported platform, no sum program, no write permission", async () => {
    const { home, bin, env } = world();
    const missing = await run(["sh", installSh, "--prefix", bin, "--version", "9.9.9"], env);
    expect(missing).toEqual({ code: 1, stdout: `Installing pig 9.9.9 for ${target} into ${bin}\n`, stderr: `pig install: download failed: ${releaseUrl}/download/v9.9.9/SHA256SUMS (curl: (22) The requested URL returned error: 404)\n` });

    const fake = join(home, "fake");
    mkdirSync(fake);
    writeFileSync(join(fake, "uname"), '#!/bin/sh\ncase "$1" in -s) echo SunOS ;; -m) echo sparc64 ;; esac\n', { mode: 0o755 });
    const sunos = await run(["sh", installSh, "--prefix", bin], { ...env, PATH: `${fake}:${env.PATH}` });
    expect(sunos.code).toBe(1);
    expect(sunos.stderr).toStartWith("pig install: unsupported platform: SunOS sparc64 (pig is released for Linux and macOS");

    const tools = join(home, "nosum");
    mkdirSync(tools);
    for (const name of ["uname", "getconf", "ldd", "grep", "ls", "curl"]) symlinkSync(join("/usr/bin", name), join(tools, name));
    const noSum = await run(["/bin/sh", installSh, "--prefix", bin], { ...env, PATH: tools });
    expect(noSum).toEqual({ code: 1, stdout: "", stderr: "pig install: no program to check a SHA-256 sum (sha256sum, shasum or openssl): install one of them and run this again\n" });

    const locked = join(home, "locked");
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    const denied = await run(withPermissions(["sh", installSh, "--prefix", join(locked, "bin")]), env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toBe(`pig install: no write permission: cannot create ${locked}/bin (choose another directory with --prefix DIR)\n`);
    expect(existsSync(join(locked, "bin"))).toBe(false);
  });
});

describe("pig update", () => {
  test("--check, then the newest release, then already newest, then --to back to the first version", async () => {
    const { bin, env } = world();
    await installed(bin, OLD, env);
    const pig = join(bin, "pig");

    const check = await run([pig, "update", "--check"], env);
    expect(check).toEqual({ code: 0, stdout: `pig ${NEW} is available (this is ${OLD}): run pig update\n`, stderr: "" });
    expect(await versionOf(pig)).toBe(OLD);

    const update = await run([pig, "update"], env);
    expect({ code: update.code, stderr: update.stderr }).toEqual({ code: 0, stderr: "" });
    expect(update.stdout).toBe(`Downloading ${archive} of pig ${NEW} from ${releaseUrl}\nUpdated pig ${OLD} → ${NEW} (${pig})\n`);
    expect(await versionOf(pig)).toBe(NEW);
    expect(JSON.parse(readFileSync(join(bin, ".pig-install.json"), "utf8")).version).toBe(NEW);

    expect(await run([pig, "update"], env)).toEqual({ code: 0, stdout: `pig ${NEW} is up to date (the newest release)\n`, stderr: "" });
    expect(await run([pig, "update", "--check"], env)).toEqual({ code: 0, stdout: `pig ${NEW} is up to date (the newest release is ${NEW})\n`, stderr: "" });

    const down = await run([pig, "update", "--to", OLD], env);
    expect({ code: down.code, stderr: down.stderr }).toEqual({ code: 0, stderr: "" });
    expect(down.stdout).toBe(`pig ${OLD} is older than this pig (${NEW}): downgrading\nDownloading ${archive} of pig ${OLD} from ${releaseUrl}\nDowngraded pig ${NEW} → ${OLD} (${pig})\n`);
    expect(await versionOf(pig)).toBe(OLD);
    expect(readdirSync(bin).sort()).toEqual([".pig-install.json", "pig"]);

    const unknown = await run([pig, "update", "--to", "9.9.9"], env);
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: `pig: download failed: ${releaseUrl}/download/v9.9.9/release.json (HTTP 404: no such file)\n` });
  });

  test("a download with the wrong sum or a corrupted archive leaves the old pig working byte for byte", async () => {
    const { bin, env } = world();
    await installed(bin, OLD, env);
    const pig = join(bin, "pig");
    const before = sha256(pig);

    const restoreWrongSum = alteredRelease(NEW, NEW, (dir) => {
      const bytes = readFileSync(join(dir, archive));
      bytes[bytes.length >> 1]! ^= 0xff;
      writeFileSync(join(dir, archive), bytes);
    });
    const wrongSum = await run([pig, "update"], env);
    restoreWrongSum();
    expect(wrongSum.code).toBe(1);
    expect(wrongSum.stderr).toMatch(new RegExp(`^pig: wrong checksum for ${releaseUrl.replaceAll(".", "\\.")}/download/v${NEW.replaceAll(".", "\\.")}/${archive.replaceAll(".", "\\.")}: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64} \\(pig was not changed\\)\\n$`));

    const restoreCorrupt = alteredRelease(NEW, NEW, (dir) => {
      const bytes = readFileSync(join(dir, archive)).subarray(0, 4096);
      writeFileSync(join(dir, archive), bytes);
      writeFileSync(join(dir, "SHA256SUMS"), `${createHash("sha256").update(bytes).digest("hex")}  ${archive}\n`);
    });
    const corrupt = await run([pig, "update"], env);
    restoreCorrupt();
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toStartWith(`pig: corrupted archive ${archive}: not a valid gzip file`);
    expect(corrupt.stderr).toEndWith("(pig was not changed)\n");

    expect(sha256(pig)).toBe(before);
    expect(await versionOf(pig)).toBe(OLD);
    expect(readdirSync(bin).sort()).toEqual([".pig-install.json", "pig"]);
    expect(JSON.parse(readFileSync(join(bin, ".pig-install.json"), "utf8")).version).toBe(OLD);
  });

  test("mistakes on the command line name the flag; a directory pig cannot write to is said before anything is downloaded", async () => {
    const { bin, env } = world();
    await installed(bin, OLD, env);
    const pig = join(bin, "pig");
    expect(await run([pig, "update", "--to", "latest"], env)).toEqual({ code: 2, stdout: "", stderr: 'pig: update: --to "latest": not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)\nRun \'pig update --help\' for usage.\n' });
    expect(await run([pig, "update", "--extensions", "--check"], env)).toEqual({ code: 2, stdout: "", stderr: "pig: update: --check applies to pig itself, not to packages\nRun 'pig update --help' for usage.\n" });
    chmodSync(bin, 0o555);
    const denied = await run(withPermissions([pig, "update"]), env);
    chmodSync(bin, 0o755);
    expect(denied).toEqual({ code: 1, stdout: "", stderr: `pig: no write permission on ${bin}, so pig cannot replace ${pig} (run pig update as the user who installed it)\n` });
    expect(await versionOf(pig)).toBe(OLD);
  });
});
