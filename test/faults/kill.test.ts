/**
 * kill -9 at seeded moments: while a scripted tool loop runs in `pig -p`, while a compaction
 * summarises, while a v1 file is migrated, and while `fork` / `clone` copy a session. Afterwards
 * every complete line parses, the file reopens, nothing is a mix of old and new, and `pig -c`
 * takes the stale lock over and continues the same session.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSessionDir } from "../../src/session/paths.ts";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";
import { below, runCases, seeded } from "./figures.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(): Promise<PigWorld> {
  const w = await createWorld({ llm: { script: [] } });
  worlds.push(w);
  return w;
}

type Proc = ReturnType<typeof Bun.spawn>;

function spawnPig(w: PigWorld, cwd: string, args: string[], stdin: "ignore" | "pipe" = "ignore"): Proc {
  return Bun.spawn([pigBinary(), ...args], { cwd, env: w.env, stdin, stdout: "pipe", stderr: "pipe" });
}

async function finish(proc: Proc): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout as ReadableStream).text(), new Response(proc.stderr as ReadableStream).text()]);
  await proc.exited;
  return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), stdout, stderr };
}

async function run(w: PigWorld, cwd: string, args: string[]) {
  return finish(spawnPig(w, cwd, args));
}

/** The session files of a project (normally one). */
function sessionFiles(w: PigWorld, cwd: string): string[] {
  const dir = defaultSessionDir(cwd, w.agentDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => join(dir, n));
}

function tempFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.includes(".tmp-")) : [];
}

/**
 * Every line that ends in `\n` parses; only the last may be torn (no `\n`). Returns the parsed
 * lines and whether the last one was torn.
 */
function checkLines(path: string): { entries: Record<string, unknown>[]; torn: boolean } {
  const text = readFileSync(path, "utf8");
  const parts = text.split("\n");
  const last = parts.pop()!;
  const entries = parts.map((line, i) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`${path}:${i + 1} does not parse: ${line.slice(0, 80)}`);
    }
  });
  return { entries, torn: last !== "" };
}

/**
 * `pig sessions show` opens the file; `pig -c` (or `--session <file>` for a file outside the
 * project's directory) takes the lock over and continues the same session.
 */
async function expectContinues(w: PigWorld, cwd: string, path: string, how: "continue" | "by-path" = "continue"): Promise<void> {
  const before = readFileSync(path);
  const show = await run(w, cwd, ["sessions", "show", path, "--json"]);
  if (show.code !== 0) throw new Error(`sessions show failed: ${show.stderr}`);
  // Only this run's request gets the answer: one a killed pig sent may still be arriving.
  w.llm.setScript([{ when: "go on", text: "continued" }]);
  const again = await run(w, cwd, [...(how === "continue" ? ["-c"] : ["--session", path]), "-p", "go on"]);
  if (again.code !== 0 || again.stdout !== "continued\n") throw new Error(`pig ${how === "continue" ? "-c" : "--session"} failed (${again.code}): ${again.stderr}`);
  const after = readFileSync(path);
  // The old bytes stay as they were (a torn last line only gains the newline that ends it),
  // unless the file was a v1/v2 one, which is first migrated.
  const legacy = (JSON.parse(before.toString("utf8", 0, before.indexOf(10))) as { version?: number }).version !== 3;
  if (!legacy && !after.subarray(0, before.length).equals(before)) throw new Error("pig -c changed what was already in the file");
  const { entries, torn } = checkLines(path);
  if (torn) throw new Error("the file ends in a torn line after pig -c");
  // The last messages are the new prompt and its answer (a compaction may follow them: these
  // sessions can be larger than the fake model's window).
  const tail = entries
    .filter((e) => e.type === "message")
    .slice(-2)
    .map((e) => (e.message as { role: string }).role);
  if (tail.join() !== "user,assistant") throw new Error(`pig -c did not append to this session: ${tail.join()}`);
  if (existsSync(`${path}.lock`)) throw new Error("the lock stayed behind after pig -c ended");
  const dir = join(path, "..");
  if (tempFiles(dir).length > 0) throw new Error(`temp files left in ${dir}: ${tempFiles(dir).join(", ")}`);
}

/** A tool loop of `turns` bash calls, then an answer. The call at `holdAt` (1-based) waits for a release file. */
function toolLoop(turns: number, cwd: string, holdAt?: number): Script {
  const responses: Script = [];
  for (let turn = 1; turn <= turns; turn++) {
    const command =
      turn === holdAt
        ? `touch ${join(cwd, ".started")}; while [ ! -e ${join(cwd, ".release")} ]; do sleep 0.02; done; echo held`
        : `echo turn-${turn}; seq 1 ${20 * turn}`;
    responses.push({ toolCalls: [{ name: "bash", arguments: { command } }], chunkSize: 4, chunkDelayMs: 1 });
  }
  responses.push({ text: "loop finished", chunkSize: 3, chunkDelayMs: 1 });
  return responses;
}

async function untilExists(path: string): Promise<void> {
  while (!existsSync(path)) await Bun.sleep(5);
}

describe("kill -9", () => {
  test("at seeded moments of a tool loop: 70 runs, at least 50 killed; every file reopens and continues", async () => {
    const w = await world();
    const random = seeded(0x5eed_0001);
    const TURNS = 5;
    const plans = Array.from({ length: 70 }, (_, i) => {
      const mode = (["arrival", "delay", "delay", "tool"] as const)[below(random, 4)]!;
      return { i, mode, request: 1 + below(random, TURNS + 1), delayMs: below(random, 25) };
    });
    let kills = 0;
    let torn = 0;
    const failures = await runCases(
      "kill -9 during a tool loop",
      plans,
      (p) => `run ${p.i} (${p.mode} at request ${p.request}${p.mode === "delay" ? ` + ${p.delayMs} ms` : ""})`,
      async (plan) => {
        const cwd = tempDir("pig-kill-");
        const holdAt = plan.mode === "tool" ? Math.min(plan.request, TURNS) : undefined;
        w.llm.setScript(toolLoop(TURNS, cwd, holdAt));
        const base = w.llm.requests.length;
        let proc: Proc | undefined;
        w.llm.setBeforeAnswer((request) => {
          if (plan.mode === "tool" || request.seq - base !== plan.request) return;
          if (plan.mode === "arrival") proc?.kill(9);
          else setTimeout(() => proc?.kill(9), plan.delayMs);
        });
        proc = spawnPig(w, cwd, ["-p", "run the loop"]);
        if (plan.mode === "tool") {
          await Promise.race([untilExists(join(cwd, ".started")), proc.exited]);
          proc.kill(9);
        }
        const ended = await finish(proc);
        w.llm.setBeforeAnswer(undefined);
        writeFileSync(join(cwd, ".release"), "");
        if (ended.signal === "SIGKILL") kills++;
        else if (ended.code !== 0) throw new Error(`pig ended with ${ended.code} before it was killed: ${ended.stderr}`);
        const files = sessionFiles(w, cwd);
        if (files.length > 1) throw new Error(`${files.length} session files`);
        if (files.length === 0) {
          // Only a run killed before its first answer leaves no file (sessions are written with it).
          const answered = w.llm.requests.length - base > 1;
          if (answered && ended.signal !== "SIGKILL") throw new Error("no session file after a finished run");
          return;
        }
        if (checkLines(files[0]!).torn) torn++;
        await expectContinues(w, cwd, files[0]!);
      },
      () => `${kills} killed (${torn} left a torn last line); the rest finished first`,
    );
    expect(failures).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(50);
    // Seventy runs of the binary, each continued afterwards: minutes on a loaded machine.
  }, 300_000);

  test("during a compaction: no half summary, the file reopens and continues", async () => {
    const w = await createWorld({ llm: { script: [] }, settings: { compaction: { keepRecentTokens: 10 } } });
    worlds.push(w);
    const random = seeded(0x5eed_0002);
    // The summary streams for a few hundred ms: some kills land inside it, some after it.
    const cases = Array.from({ length: 8 }, (_, i) => ({ i, delayMs: below(random, 900) }));
    let written = 0;
    const failures = await runCases(
      "kill -9 during a compaction",
      cases,
      (c) => `case ${c.i} (+${c.delayMs} ms into the summary)`,
      async (c) => {
        const cwd = tempDir("pig-kill-compact-");
        w.llm.setScript([{ text: "first answer" }, { text: "second answer" }, { text: "third answer" }]);
        for (const prompt of ["one", "two", "three"]) {
          const r = await run(w, cwd, ["-c", "-p", `${prompt} ${"words ".repeat(200)}`]);
          if (r.code !== 0) throw new Error(r.stderr);
        }
        const [path] = sessionFiles(w, cwd);
        const before = readFileSync(path!);
        w.llm.setScript([{ when: "context summarization assistant", text: `## Goal\n${"summary text ".repeat(400)}`, chunkSize: 16, chunkDelayMs: 1 }]);
        const proc = spawnPig(w, cwd, ["-c", "--mode", "rpc"], "pipe");
        w.llm.setBeforeAnswer(() => {
          setTimeout(() => proc.kill(9), c.delayMs);
        });
        const stdin = proc.stdin as import("bun").FileSink;
        stdin.write(`${JSON.stringify({ type: "compact", id: "c1", customInstructions: "keep it short" })}\n`);
        // At end of input pig finishes the compaction, then exits (unless killed first).
        stdin.end();
        const ended = await finish(proc);
        w.llm.setBeforeAnswer(undefined);
        const after = readFileSync(path!);
        if (!after.subarray(0, before.length).equals(before)) throw new Error("the entries before the compaction changed");
        const { entries, torn } = checkLines(path!);
        if (torn) throw new Error("a torn line after a compaction was cut short");
        const added = entries.slice(before.toString().split("\n").length - 1);
        if (added.some((e) => e.type !== "compaction")) throw new Error(`unexpected entries: ${added.map((e) => e.type).join()}`);
        if (ended.signal !== "SIGKILL" && added.length !== 1) throw new Error("a finished compaction wrote no entry");
        written += added.length;
        await expectContinues(w, cwd, path!);
      },
      () => `${cases.length - written} killed before the summary was whole (no entry), ${written} after (one whole entry)`,
    );
    expect(failures).toEqual([]);
  });

  test("during a v1 file's migration: afterwards the original file or the whole migrated one, never a mix", async () => {
    const w = await world();
    const cwd = tempDir("pig-kill-migrate-");
    // A large v1 file (no ids; Pi wrote these before 0.x), so the rewrite takes a while.
    const original = join(tempDir(), "legacy.jsonl");
    const lines = [JSON.stringify({ type: "session", id: "legacy-kill", timestamp: "2025-01-01T00:00:00.000Z", cwd })];
    for (let i = 0; i < 6000; i++) {
      const role = i % 2 === 0 ? "user" : "assistant";
      const content = [{ type: "text", text: `${role} line ${i} ${"lorem ipsum ".repeat(120)}` }];
      const message =
        role === "user"
          ? { role, content, timestamp: i }
          : { role, content, api: "openai-completions", provider: "fake", model: "fake-model", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: i };
      lines.push(JSON.stringify({ type: "message", timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(), message }));
    }
    writeFileSync(original, `${lines.join("\n")}\n`);
    const originalBytes = readFileSync(original);
    // How long a whole migration takes here: the kills fall inside that span.
    const dir = tempDir();
    const probe = join(dir, "probe.jsonl");
    copyFileSync(original, probe);
    w.llm.setScript([]);
    const started = performance.now();
    const full = await run(w, cwd, ["--session", probe, "-p", "hi"]);
    if (full.code !== 0) throw new Error(full.stderr);
    const span = performance.now() - started;
    const random = seeded(0x5eed_0003);
    const cases = Array.from({ length: 12 }, (_, i) => ({ i, delayMs: Math.floor(random() * span) }));
    let mixes = 0;
    let kept = 0;
    let migratedWhole = 0;
    const failures = await runCases(
      "kill -9 during a v1 → v3 migration",
      cases,
      (c) => `case ${c.i} (+${c.delayMs} ms of ${Math.round(span)})`,
      async (c) => {
        const path = join(tempDir(), "legacy.jsonl");
        copyFileSync(original, path);
        const proc = spawnPig(w, cwd, ["--session", path, "-p", "hi"]);
        setTimeout(() => proc.kill(9), c.delayMs);
        await finish(proc);
        const now = readFileSync(path);
        if (now.equals(originalBytes)) kept++;
        else {
          migratedWhole++;
          const migrated = readFileSync(path, "utf8").split("\n");
          const old = originalBytes.toString().split("\n");
          // Migrated lines first (the same entries with ids added), then the prompt and answer that followed.
          for (let i = 0; i < old.length - 1; i++) {
            const a = JSON.parse(old[i]!) as Record<string, unknown>;
            const b = JSON.parse(migrated[i]!) as Record<string, unknown>;
            if (i === 0) delete b.version;
            else {
              delete b.id;
              delete b.parentId;
            }
            if (!Bun.deepEquals(a, b)) {
              mixes++;
              throw new Error(`line ${i + 1} is neither the original nor its migration`);
            }
          }
          if (JSON.parse(migrated[0]!).version !== 3) throw new Error("a changed file that is not v3");
        }
        checkLines(path);
        await expectContinues(w, cwd, path, "by-path");
      },
      () => `${kept} left the original file, ${migratedWhole} the whole migrated one`,
    );
    expect(failures).toEqual([]);
    expect(mixes).toBe(0);
    // Thirteen whole or cut migrations of a 9 MB file and a run on each result: about 45 s on a
    // loaded 2-core machine, too close to the suite's minute a test.
  }, 180_000);

  test("during fork and clone: the source stays byte for byte, a copy is whole or absent", async () => {
    const w = await world();
    const cwd = tempDir("pig-kill-fork-");
    w.llm.setScript([{ text: "seed answer" }]);
    const seed = await run(w, cwd, ["-p", "seed"]);
    if (seed.code !== 0) throw new Error(seed.stderr);
    const [source] = sessionFiles(w, cwd);
    // Grow the session so a copy takes a moment: many turns appended as whole lines.
    const grown = checkLines(source!).entries;
    let parent = grown.at(-1)!.id as string;
    const extra: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const id = `f${String(i).padStart(7, "0")}`;
      const role = i % 2 === 0 ? "user" : "assistant";
      const message =
        role === "user"
          ? { role, content: [{ type: "text", text: `question ${i} ${"x".repeat(400)}` }], timestamp: i }
          : { role, content: [{ type: "text", text: `answer ${i}` }], api: "openai-completions", provider: "fake", model: "fake-model", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: i };
      extra.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(), message }));
      parent = id;
    }
    writeFileSync(source!, `${readFileSync(source!, "utf8")}${extra.join("\n")}\n`);
    const sourceBytes = readFileSync(source!);
    const forkAt = "f0003000";
    const random = seeded(0x5eed_0004);
    const cases = Array.from({ length: 12 }, (_, i) => ({ i, command: i % 2 === 0 ? "fork" : "clone", delayMs: below(random, 60) }));
    let copies = 0;
    const failures = await runCases(
      "kill -9 during fork and clone",
      cases,
      (c) => `${c.command} ${c.i} (+${c.delayMs} ms)`,
      async (c) => {
        const dir = join(source!, "..");
        const before = new Set(readdirSync(dir));
        const proc = spawnPig(w, cwd, ["--session", source!, "--mode", "rpc"], "pipe");
        const stdin = proc.stdin as import("bun").FileSink;
        const command = c.command === "fork" ? { type: "fork", id: "f", entryId: forkAt } : { type: "clone", id: "c" };
        stdin.write(`${JSON.stringify(command)}\n`);
        stdin.flush();
        setTimeout(() => proc.kill(9), c.delayMs);
        await finish(proc);
        if (!readFileSync(source!).equals(sourceBytes)) throw new Error("the source session changed");
        const added = readdirSync(dir).filter((n) => !before.has(n) && n.endsWith(".jsonl"));
        if (added.length > 1) throw new Error(`${added.length} new files`);
        copies += added.length;
        for (const name of added) {
          const { entries, torn } = checkLines(join(dir, name));
          if (torn) throw new Error(`${name} ends in a torn line`);
          const ids = entries.slice(1).map((e) => e.id);
          const wanted = c.command === "fork" ? ids.at(-1) === "f0002999" : ids.at(-1) === parent;
          if (!wanted) throw new Error(`${name} is not the whole copy (it ends at ${String(ids.at(-1))})`);
        }
        // Whatever the kill left, the source reopens and continues.
        w.llm.setScript([{ text: "continued" }]);
        const again = await run(w, cwd, ["--session", source!, "-p", "go on"]);
        if (again.code !== 0) throw new Error(`continuing the source failed: ${again.stderr}`);
        writeFileSync(source!, sourceBytes);
        for (const name of readdirSync(dir)) if (!before.has(name)) rmSync(join(dir, name), { force: true });
      },
      () => `${copies} left a whole copy, ${cases.length - copies} none`,
    );
    expect(failures).toEqual([]);
  });
});

