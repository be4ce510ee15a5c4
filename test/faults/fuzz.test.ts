/**
 * Fuzzed session files: 1,000 seeded mutations of the Pi fixture files (see mutate.ts). For
 * each, `pig sessions show` and `pig -c -p` never crash or hang; a file pig only read is byte
 * for byte what it was; a file pig cannot open gets a message naming it (and the line, where a
 * line is at fault). `pig sessions list` reads all of them at once.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSessionDir } from "../../src/session/paths.ts";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { FIXTURES, tempDir } from "../helpers/tmp.ts";
import { reportFigure, seeded } from "./figures.ts";
import { damage, type MutationKind } from "./mutate.ts";

const CASES = 1000;
/** A run that takes longer than this counts as a hang. */
const HANG_MS = 30_000;

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

interface Outcome {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

async function runPig(w: PigWorld, cwd: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const proc = Bun.spawn([pigBinary(), ...args], {
    cwd,
    env: { ...w.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: HANG_MS,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), stdout, stderr };
}

/** A run that ended on its own, with 0 or a reported error (never a crash, a hang or a stack trace). */
function expectClean(what: string, r: Outcome, path: string): void {
  if (r.signal !== null) throw new Error(`${what}: ended by ${r.signal}${r.signal === "SIGKILL" ? " (hung)" : ""}`);
  if (r.code !== 0 && r.code !== 1) throw new Error(`${what}: exit code ${r.code}: ${r.stderr.slice(0, 300)}`);
  if (/unexpected error|^\s+at /m.test(r.stderr)) throw new Error(`${what}: crashed: ${r.stderr.slice(0, 400)}`);
  if (r.code === 1 && !r.stderr.includes(path)) throw new Error(`${what}: the error does not name the file: ${r.stderr.slice(0, 300)}`);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

test(`${CASES} seeded mutations of the fixtures: show, list and -c never crash or hang, and reading never writes`, async () => {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  const bases = readdirSync(FIXTURES)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(FIXTURES, name))) }));
  const random = seeded(0xf022_0001);
  const listing = tempDir("pig-fuzz-list-");
  const failures: string[] = [];
  const kinds = new Map<MutationKind, number>();
  let refusedShow = 0;

  const one = async (i: number) => {
    const base = bases[i % bases.length]!;
    const mutated = damage(base.bytes, random);
    for (const k of mutated.kinds) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const label = `case ${i} (${base.name}: ${mutated.kinds.join(" + ")})`;
    const cwd = tempDir("pig-fuzz-");
    const dir = defaultSessionDir(cwd, w.agentDir);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "fuzzed.jsonl");
    writeFileSync(path, mutated.bytes);
    // The same bytes go to the listing project, read all at once at the end.
    const listDir = join(listing, "sessions", `--batch-${Math.floor(i / 100)}--`);
    mkdirSync(listDir, { recursive: true });
    writeFileSync(join(listDir, `fuzzed-${i}.jsonl`), mutated.bytes);
    try {
      const show = await runPig(w, cwd, ["sessions", "show", path]);
      expectClean("sessions show", show, path);
      if (show.code === 1) refusedShow++;
      const json = await runPig(w, cwd, ["sessions", "show", path, "--json"]);
      expectClean("sessions show --json", json, path);
      if (json.code !== show.code) throw new Error(`show --json ended with ${json.code}, show with ${show.code}`);
      if (json.code === 0) {
        const context = JSON.parse(json.stdout) as { messages?: unknown };
        if (!Array.isArray(context.messages)) throw new Error("show --json gave no message list");
      }
      const tree = await runPig(w, cwd, ["sessions", "tree", path]);
      expectClean("sessions tree", tree, path);
      if (!sameBytes(readFileSync(path), mutated.bytes)) throw new Error("reading the file changed it");
      // Whatever the damage, the project's session can be continued: a file pig can open gets
      // the new messages, one it cannot is left alone and a new session starts.
      const cont = await runPig(w, cwd, ["-c", "-p", "hello again"]);
      expectClean("pig -c -p", cont, path);
      if (cont.code !== 0 || cont.stdout !== "ok\n") throw new Error(`pig -c -p did not answer (${cont.code}): ${cont.stderr.slice(0, 300)}`);
    } catch (error) {
      failures.push(`${label}: ${(error as Error).message}`);
    }
  };
  // Two at a time: a 2-core machine stays busy without queueing.
  for (let i = 0; i < CASES; i += 2) await Promise.all([one(i), ...(i + 1 < CASES ? [one(i + 1)] : [])]);

  // sessions list, over every damaged file at once: no crash, valid JSON, nothing written.
  const before = new Map<string, Uint8Array>();
  for (const d of readdirSync(join(listing, "sessions"))) {
    for (const f of readdirSync(join(listing, "sessions", d))) before.set(join(listing, "sessions", d, f), new Uint8Array(readFileSync(join(listing, "sessions", d, f))));
  }
  const list = await runPig(w, listing, ["sessions", "list", "--all", "--json"], { PIG_CODING_AGENT_DIR: listing });
  try {
    expectClean("sessions list", list, listing);
    if (list.code !== 0) throw new Error(`sessions list failed: ${list.stderr.slice(0, 300)}`);
    const listed = JSON.parse(list.stdout) as unknown[];
    if (!Array.isArray(listed)) throw new Error("sessions list --json is not a list");
    for (const [file, bytes] of before) if (!sameBytes(readFileSync(file), bytes)) throw new Error(`sessions list changed ${file}`);
  } catch (error) {
    failures.push(`sessions list: ${(error as Error).message}`);
  }
  const note = `${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}; show refused ${refusedShow} files`;
  reportFigure({ fault: "fuzzed session files", cases: CASES, failures: failures.length, note });
  expect(failures).toEqual([]);
  // About 5,000 runs of the binary: minutes on a loaded machine.
}, 600_000);
