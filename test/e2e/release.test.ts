/**
 * The release build: pig for all seven release targets, each checked for its executable format, CPU and
 * size, and the one for this machine run. Building takes ~15 s, so the result is kept in a temp
 * directory keyed by a hash of everything that goes into it (sources, build flags, Bun version):
 * a re-run with nothing changed only checks. Needs the Bun runtime packages from the npm registry
 * (fetched once into the runtime cache); skipped without them, failing under CI=true.
 */
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { buildRelease } from "../../scripts/release.ts";
import { RELEASE_TARGET_IDS, checkExecutable, readHead, defaultRuntimeCache, fetchRuntime, hostTargetId, parseTarget } from "../../src/cli/build-target.ts";
import { describeNeeding, inCI } from "../helpers/needs.ts";
import { tempDir } from "../helpers/tmp.ts";
import { userDir } from "../../src/util/process-dir.ts";

const root = join(import.meta.dir, "..", "..");
const targets = RELEASE_TARGET_IDS.map((id) => parseTarget(id));
const cacheDir = defaultRuntimeCache();
const PIG_ONLY_TEXT = "Run a PowerShell command in the current working directory";

/** null when every other platform's runtime is in the cache (fetched now if need be), else why not. */
async function runtimesMissing(): Promise<string | null> {
  try {
    for (const target of targets) if (target.id !== hostTargetId()) await fetchRuntime(target, { bunVersion: Bun.version, cacheDir });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Every file under `dir`, sorted, as paths relative to the root. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else out.push(relative(root, path));
  }
  return out.sort();
}

function inputsHash(): string {
  const hash = createHash("sha256").update(`bun ${Bun.version}\n`);
  const inputs = [...filesUnder(join(root, "src")), "scripts/release.ts", "scripts/build-flags.ts", "scripts/bytecode-order.ts", "package.json", "package-lock.json"];
  for (const file of inputs) {
    if (!existsSync(join(root, file))) continue;
    hash.update(`${file}\n`).update(readFileSync(join(root, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

const outDir = join(userDir(tmpdir(), "pig-release-test"), inputsHash());
// A build kept from an earlier run needs no runtimes.
const missing = existsSync(join(outDir, "SHA256SUMS")) ? null : await runtimesMissing();
if (missing !== null && !inCI()) console.warn(`release binaries skipped: ${missing}`);

// Under CI=true the test runs regardless, and fails with the fetch's own error.
describeNeeding("the Bun runtime packages (npm registry)", missing === null || inCI(), "release binaries", () => {
  test("every release target builds into an executable of its own format and CPU", async () => {
    if (!existsSync(join(outDir, "SHA256SUMS"))) {
      // Built aside and renamed into place, so an interrupted build is never taken for a cached one.
      mkdirSync(join(outDir, ".."), { recursive: true });
      const work = mkdtempSync(`${outDir}.tmp-`);
      await buildRelease({ targets, outDir: work, cacheDir, version: pkg.version, log: () => undefined });
      rmSync(outDir, { recursive: true, force: true });
      renameSync(work, outDir);
      // Builds for sources that are gone are ~560 MB each: keep only this one.
      const parent = join(outDir, "..");
      for (const old of readdirSync(parent)) if (join(parent, old) !== outDir && !old.includes(".tmp-")) rmSync(join(parent, old), { recursive: true, force: true });
    }
    const sums = readFileSync(join(outDir, "SHA256SUMS"), "utf8");
    for (const target of targets) {
      const name = `pig-${pkg.version}-${target.id}${target.suffix}`;
      const path = join(outDir, name);
      expect(sums).toContain(`  ${name}\n`);
      expect({ name, wrong: checkExecutable(readHead(path), target) }).toEqual({ name, wrong: null });
      // The runtime alone is 85–120 MB; pig adds a few MB.
      const mb = statSync(path).size / 1e6;
      expect({ name, sane: mb > 60 && mb < 200 }).toEqual({ name, sane: true });
      // pig's bundle is in it, not just a runtime: a text only pig's sources have.
      expect({ name, bundled: readFileSync(path).includes(PIG_ONLY_TEXT) }).toEqual({ name, bundled: true });
    }
    const host = hostTargetId();
    const mine = targets.find((t) => t.id === host);
    if (mine) {
      // Run inside a directory whose bunfig.toml would preload a script: the release binary is
      // built with dist/pig's flags, so it must not read it.
      const dir = tempDir();
      const marker = join(dir, "preload-ran");
      writeFileSync(join(dir, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");`);
      writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
      const binary = join(outDir, `pig-${pkg.version}-${mine.id}${mine.suffix}`);
      const proc = Bun.spawnSync([binary, "--version"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      expect({ code: proc.exitCode, stdout: proc.stdout.toString(), preloaded: existsSync(marker) }).toEqual({
        code: 0,
        stdout: `${pkg.version}\n`,
        preloaded: false,
      });
    }
  }, 600_000);

  test("pig build --target: a Piglet Binary for another platform, its linked extension inside", async () => {
    const out = join(tempDir("pig-build-target-"), "piglet");
    const extension = join(root, "examples", "piglet-binary", "guard.ts");
    const proc = Bun.spawn([process.execPath, join(root, "src", "cli", "main.ts"), "build", "-e", extension, "-o", out, "--target", "linux-arm64"], { cwd: root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(`built ${out} for linux-arm64 with 1 linked extension\n`);
    expect(checkExecutable(readHead(out), parseTarget("linux-arm64"))).toBeNull();
    expect(readFileSync(out).includes("force-pushing is off for this team")).toBe(true);
  }, 120_000);
});
