/**
 * The bad-configuration faults: one faulty file in an otherwise working world, the real binary
 * run against it (print, RPC or interactive in tmux), and the promises checked on what it did —
 * the message names the file and says what is wrong where, the exit code, no crash, and the
 * file left exactly as the person wrote it.
 *
 * Every run drops the capabilities that let root read any file (see permissions.ts), so a file
 * of mode 000 is unreadable to pig in CI too.
 */
import { expect } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pigBinary } from "../../helpers/binary.ts";
import { withPermissions } from "../../helpers/permissions.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../../helpers/pig-env.ts";
import { TmuxSession } from "../../helpers/tmux.ts";
import { runCases } from "../figures.ts";

export const FAULTS = ["malformed", "wrong type at the top", "wrong type in a field", "unknown keys", "unreadable", "directory"] as const;
export type Fault = (typeof FAULTS)[number];

/** How a fault is put into a file: its text, a directory in its place, or valid text nobody may read. */
export type Injection = { text: string } | { directory: true } | { unreadable: string };

export type Mode = "print" | "rpc" | "interactive";

export interface Outcome {
  /** Exit code (print and RPC runs). */
  code?: number;
  stdout: string;
  /** stderr, or the screen of an interactive run. */
  said: string;
}

export interface ConfigCase {
  /** The file, as the figures and failures name it ("settings.json", "skills/…/SKILL.md"). */
  file: string;
  fault: Fault;
  mode: Mode;
  /** Where the faulty file goes: relative to the agent dir, or to the working dir with `project`. */
  where: { agent: string } | { project: string };
  inject: Injection | ((world: PigWorld) => Injection);
  world?: WorldOptions;
  /** Called after the world exists and before the fault goes in (project files, trust). */
  prepare?: (world: PigWorld) => void;
  args?: string[];
  /** The message of a print run (default "hi"). */
  message?: string;
  /** RPC commands sent on stdin (then end of input); print runs get none. */
  commands?: Record<string, unknown>[];
  /** What must follow "<path>: " in the output, each on some line (a function when it names the world's paths). */
  says: string[] | ((world: PigWorld) => string[]);
  /** Other text the output must hold (not tied to the path). */
  alsoSays?: string[];
  /** Print and RPC runs: the exit code. */
  code?: number;
  /** Interactive runs: what shows once pig is ready (the prompt, or the first-run setup). */
  ready?: string;
  /** The run is meant to change the file (a setting saved into a file that was usable). */
  rewrites?: boolean;
  then?: (world: PigWorld, outcome: Outcome, path: string) => void;
}

export function label(c: ConfigCase): string {
  return `${c.file} ${c.fault} (${c.mode})`;
}

// ---- The file as it was ---------------------------------------------------------------------

interface Snapshot {
  kind: "file" | "dir";
  bytes?: Buffer;
  mode: number;
  mtimeMs: number;
}

/** The bytes of a file the test made, even at mode 000 (a mode change leaves the mtime alone). */
function readAsOwner(path: string, mode: number): Buffer {
  if ((mode & 0o400) !== 0 || process.getuid?.() === 0) return readFileSync(path);
  chmodSync(path, mode | 0o400);
  try {
    return readFileSync(path);
  } finally {
    chmodSync(path, mode & 0o7777);
  }
}

function snapshot(path: string): Snapshot {
  const stats = lstatSync(path);
  return {
    kind: stats.isDirectory() ? "dir" : "file",
    ...(stats.isDirectory() ? {} : { bytes: readAsOwner(path, stats.mode) }),
    mode: stats.mode,
    mtimeMs: stats.mtimeMs,
  };
}

function expectUntouched(path: string, before: Snapshot): void {
  const after = snapshot(path);
  expect({ kind: after.kind, mode: after.mode, mtimeMs: after.mtimeMs }).toEqual({ kind: before.kind, mode: before.mode, mtimeMs: before.mtimeMs });
  if (before.bytes) expect(after.bytes!.equals(before.bytes)).toBe(true);
}

function inject(path: string, injection: Injection): void {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  if ("directory" in injection) mkdirSync(path);
  else if ("unreadable" in injection) {
    writeFileSync(path, injection.unreadable);
    chmodSync(path, 0o000);
  } else writeFileSync(path, injection.text);
}

// ---- Running pig ----------------------------------------------------------------------------

async function runPig(world: PigWorld, args: string[], stdin?: string): Promise<Outcome> {
  const proc = Bun.spawn(withPermissions([pigBinary(), ...args]), {
    cwd: world.cwd,
    env: world.env,
    stdin: stdin !== undefined ? new Blob([stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, said, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, said };
}

/** Interactive pig in a window wide enough that no message wraps; the screen once all is shown. */
async function runInteractive(world: PigWorld, args: string[], shown: (screen: string) => boolean): Promise<Outcome> {
  const tmux = TmuxSession.start({
    // A pig that stops at start leaves its words on a live pane (tmux's "Pane is dead" line would scroll them away).
    command: ["sh", "-c", '"$@"; exec sleep 600', "sh", ...withPermissions([pigBinary(), ...args])],
    cwd: world.cwd,
    width: 400,
    height: 40,
    env: { ...world.env, TERM: "xterm-256color" },
  });
  try {
    const screen = await tmux.waitFor(shown);
    return { stdout: "", said: screen };
  } finally {
    tmux.kill();
  }
}

/** Lines of RPC stdout, parsed. */
export function rpcLines(outcome: Outcome): Record<string, unknown>[] {
  return outcome.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function rpcResponse(outcome: Outcome, id: string): Record<string, unknown> | undefined {
  return rpcLines(outcome).find((line) => line.type === "response" && line.id === id);
}

// ---- One case -------------------------------------------------------------------------------

const CRASH = /unexpected error|^\s+at .+:\d+(:\d+)?\)?$/m;

export function targetPath(world: PigWorld, where: ConfigCase["where"]): string {
  return "agent" in where ? join(world.agentDir, where.agent) : join(world.cwd, where.project);
}

export async function checkCase(c: ConfigCase): Promise<void> {
  const world = await createWorld({ llm: { mode: "text" }, ...c.world });
  try {
    c.prepare?.(world);
    const path = targetPath(world, c.where);
    inject(path, typeof c.inject === "function" ? c.inject(world) : c.inject);
    const before = snapshot(path);
    const says = typeof c.says === "function" ? c.says(world) : c.says;
    const expected = [...says.map((s) => `${path}: ${s}`), ...(c.alsoSays ?? [])];
    let outcome: Outcome;
    if (c.mode === "interactive") {
      const ready = c.ready ?? "›";
      outcome = await runInteractive(world, c.args ?? [], (screen) => screen.includes(ready) && expected.every((e) => screen.includes(e)));
    } else {
      const stdin = c.commands?.map((command) => `${JSON.stringify(command)}\n`).join("");
      outcome = await runPig(world, c.mode === "rpc" ? ["--mode", "rpc", ...(c.args ?? [])] : [...(c.args ?? []), "-p", c.message ?? "hi"], stdin ?? undefined);
    }
    for (const e of expected) expect(outcome.said).toContain(e);
    expect(outcome.said).not.toMatch(CRASH);
    if (c.code !== undefined) expect({ code: outcome.code, said: outcome.said }).toEqual({ code: c.code, said: outcome.said });
    if (!c.rewrites) expectUntouched(path, before);
    c.then?.(world, outcome, path);
  } finally {
    await world.close();
  }
}

/** Runs at most `n` of the given jobs at once; a finished job hands its slot to the next. */
function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Runs the cases two at a time (the machine has two cores) and returns the failures; the figure
 * is reported under `fault`.
 */
export async function runConfigCases(fault: string, cases: readonly ConfigCase[]): Promise<string[]> {
  const limit = limiter(2);
  // Settled to a value at once, so a case failing before its turn to be collected is no unhandled rejection.
  const results = cases.map((c) =>
    limit(() => checkCase(c)).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ),
  );
  return runCases(fault, cases, label, async (_c, index) => {
    const error = await results[index];
    if (error) throw error;
  });
}

/** The user text of the request at `index` (OpenAI chat format, as the fake world speaks). */
export function lastUserText(world: PigWorld, index = 0): string {
  const messages = (world.llm.requests[index]!.body as { messages: { role: string; content: string | { text: string }[] }[] }).messages;
  const content = messages.filter((m) => m.role === "user").at(-1)!.content;
  return typeof content === "string" ? content : content.map((part) => part.text).join("");
}

export function systemPrompt(world: PigWorld, index = 0): string {
  return (world.llm.requests[index]!.body as { messages: { content: string }[] }).messages[0]!.content;
}

/** pig answered: one request reached the model and its answer was printed. */
export function answered(world: PigWorld, outcome: Outcome): void {
  expect(world.llm.requests).toHaveLength(1);
  expect(outcome.stdout).toContain("ok");
}
