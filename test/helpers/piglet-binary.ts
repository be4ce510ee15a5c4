/**
 * Piglet Binaries for tests: `pig build` run from the sources, once per set of extensions and
 * content. The cache key is a hash of pig's sources, package.json, the extension files and the
 * Bun version, so a binary is rebuilt exactly when something that goes into it changed; it lives
 * under the OS temp dir and is written under a temporary name and renamed into place, so test
 * files building the same binary at once never see half of one.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userDir } from "../../src/util/process-dir.ts";

const root = join(import.meta.dir, "..", "..");

function addTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) addTree(hash, path);
    else {
      hash.update(path);
      hash.update(readFileSync(path));
    }
  }
}

export function pigletCacheKey(extensions: readonly string[], more: PigletBuildOptions = {}): string {
  const hash = createHash("sha256");
  addTree(hash, join(root, "src"));
  hash.update(readFileSync(join(root, "package.json")));
  for (const ext of extensions) {
    hash.update(ext);
    hash.update(readFileSync(ext));
  }
  for (const input of more.inputs ?? []) addTree(hash, input);
  hash.update(JSON.stringify(more.args ?? []));
  hash.update(Bun.version);
  return hash.digest("hex").slice(0, 24);
}

export interface PigletBuildOptions {
  /** More arguments for `pig build` (`--piglet`, `--name`, …). */
  args?: readonly string[];
  /** Directories whose files go into the binary too (a Piglet's), for the cache key. */
  inputs?: readonly string[];
}

/** The Piglet Binary with `extensions` linked in (absolute paths, in load order). */
export function pigletBinary(extensions: readonly string[], more: PigletBuildOptions = {}): string {
  const cache = userDir(tmpdir(), "pig-piglet-cache");
  const dir = join(cache, pigletCacheKey(extensions, more));
  const out = join(dir, "pig");
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  pruneStale(cache, dir);
  const partial = join(dir, `pig.${process.pid}.${Date.now()}.partial`);
  const proc = Bun.spawnSync([process.execPath, join(root, "src", "cli", "main.ts"), "build", ...extensions.flatMap((e) => ["-e", e]), ...(more.args ?? []), "-o", partial], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`pig build failed (exit ${proc.exitCode}):\n${proc.stdout.toString()}${proc.stderr.toString()}`);
  }
  renameSync(partial, out);
  return out;
}

/** Binaries of other contents (~110 MB each) built more than a day ago go: the key changes with every source edit. */
function pruneStale(cache: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path === keep) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another test file removed it first.
    }
  }
}
