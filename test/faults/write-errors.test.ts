/**
 * Write errors: the session file's file system fills up (ENOSPC on a small tmpfs), becomes
 * read-only (EROFS: the tmpfs remounted read-only mid-run), or the file loses its write
 * permission (EACCES, permissions applied even to root). The run stops with a message naming
 * the file and the entries not written; what is in the file stays whole.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { withPermissions } from "../helpers/permissions.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";
import { reportFigure } from "./figures.ts";

const mounts: string[] = [];
const worlds: PigWorld[] = [];
afterAll(async () => {
  for (const dir of mounts.splice(0)) {
    Bun.spawnSync(["umount", "-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

/** A tmpfs of `kib` KiB, or undefined where this machine cannot mount one (not root). */
function mountTmpfs(kib: number): string | undefined {
  // Not a tempDir(): those are removed before this file's own clean-up could unmount it.
  const dir = mkdtempSync(join(tmpdir(), "pig-tmpfs-"));
  const result = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${kib}k,mode=0777`, "tmpfs", dir], { stderr: "pipe" });
  mounts.push(dir);
  return result.exitCode === 0 ? dir : undefined;
}

const canMount = (() => {
  const probe = mountTmpfs(64);
  return probe !== undefined;
})();

/** Every line of a session file parses, and none is torn. */
function expectWhole(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function onlyFile(dir: string): string {
  const files = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
}

async function runPig(w: PigWorld, args: string[], options: { env?: Record<string, string>; permissions?: boolean } = {}) {
  const argv = [pigBinary(), ...args];
  const proc = Bun.spawn(options.permissions ? withPermissions(argv) : argv, {
    cwd: w.cwd,
    env: { ...w.env, ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

/** A tool call whose result is big: the bash tool keeps the last 50 KB of its 300 KB. */
const BIG_TOOL_CALL = { toolCalls: [{ name: "bash", arguments: { command: "head -c 300000 /dev/zero | tr '\\0' x | fold -w 100" } }] };

describeNeeding("a tmpfs mount (root)", canMount, "write errors", () => {
  test("ENOSPC: the disk fills up on a tool result; the run stops, names the file and the entry, the file stays whole", async () => {
    const fs = mountTmpfs(160)!;
    const sessions = join(fs, "sessions");
    mkdirSync(sessions);
    const w = await createWorld({ llm: { script: [BIG_TOOL_CALL, { text: "never asked" }] } });
    worlds.push(w);
    // Leave about 40 KB: the first write (a few KB) fits, the ~50 KB tool result does not.
    writeFileSync(join(fs, "filler"), Buffer.alloc(120 * 1024));
    const result = await runPig(w, ["--session-dir", sessions, "-p", "list the numbers"]);
    expect(result.code).toBe(1);
    const file = onlyFile(sessions);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain("ENOSPC");
    expect(result.stderr).toMatch(/not in the file: toolResult message [0-9a-f]{8}/);
    expect(result.stderr).not.toContain("unexpected error");
    // Nothing was asked of the model once the session could not keep up.
    expect(w.llm.requests).toHaveLength(1);
    const entries = expectWhole(file);
    expect(entries.map((e) => (e.type === "message" ? (e.message as { role: string }).role : e.type))).toEqual([
      "session",
      "model_change",
      "thinking_level_change",
      "system",
      "user",
      "assistant",
    ]);
    // With room again, the session continues.
    rmSync(join(fs, "filler"));
    w.llm.setScript([{ text: "continued" }]);
    const again = await runPig(w, ["--session-dir", sessions, "-c", "-p", "go on"]);
    expect(again).toMatchObject({ code: 0, stdout: "continued\n" });
    expect(expectWhole(file).length).toBe(entries.length + 2);
    reportFigure({ fault: "write error: disk full (ENOSPC)", cases: 1, failures: 0 });
  });

  /**
   * A tool turn whose result is written, then `breakIt` runs before the second answer arrives;
   * that answer cannot be written. The run must stop naming the file, the error and the answer.
   */
  async function breakMidRun(sessions: string, code: string, breakIt: (file: string) => void, permissions = false) {
    const w = await createWorld({ llm: { script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo one" } }] }, { text: "lost answer" }] } });
    worlds.push(w);
    w.llm.setBeforeAnswer((request) => {
      if (request.seq === 2) breakIt(onlyFile(sessions));
    });
    const result = await runPig(w, ["--session-dir", sessions, "-p", "go"], { permissions });
    w.llm.setBeforeAnswer(undefined);
    expect(result.code).toBe(1);
    // The answer came, though the file could not take it: it is printed all the same.
    expect(result.stdout).toBe("lost answer\n");
    const file = onlyFile(sessions);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain(code);
    expect(result.stderr).toMatch(/not in the file: assistant message [0-9a-f]{8}/);
    const roles = expectWhole(file).flatMap((e) => (e.type === "message" ? [(e.message as { role: string }).role] : []));
    expect(roles).toEqual(["system", "user", "assistant", "toolResult"]);
  }

  test("EROFS: the file system turns read-only mid-run; the answer that cannot be written is named", async () => {
    const fs = mountTmpfs(4096)!;
    const sessions = join(fs, "sessions");
    mkdirSync(sessions);
    await breakMidRun(sessions, "EROFS", () => expect(Bun.spawnSync(["mount", "-o", "remount,ro", fs]).exitCode).toBe(0));
    expect(Bun.spawnSync(["mount", "-o", "remount,rw", fs]).exitCode).toBe(0);
    reportFigure({ fault: "write error: read-only file system (EROFS)", cases: 1, failures: 0 });
  });

  test("EACCES: the file loses its write permission mid-run (as root too); the run stops and says so", async () => {
    await breakMidRun(tempDir("pig-sessions-"), "EACCES", (file) => chmodSync(file, 0o444), true);
    reportFigure({ fault: "write error: permission lost (EACCES)", cases: 1, failures: 0 });
  });
});
