/**
 * What the provider-fault cases share: a world per case for one of the three APIs (fast retries,
 * optionally a base URL that is not the fake server), a run of the real binary with a bound that
 * turns a hang into a failure, and the checks every case makes — the failure message names
 * provider, model, URL and attempts, retries are visible, and the session file is consistent
 * and reopens with `pig sessions show`.
 */
import { afterAll, expect } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, fakeModelsJson, type FixtureApi, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

export const APIS: readonly FixtureApi[] = ["openai-completions", "anthropic-messages", "openai-responses"];

/** How long a stall lasts before pig gives the attempt up, in the stall cases. */
export const IDLE_MS = 1000;

/** Fast retries: two of them, 10 ms apart and doubling. */
export const FAST_RETRY = { enabled: true, maxRetries: 2, baseDelayMs: 10 };

/** A bound on one run: far beyond what any case needs, so reaching it means pig hung. */
const RUN_BOUND_MS = 60_000;

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

export interface FaultWorldOptions {
  settings?: Record<string, unknown>;
  /** The provider's base URL (as the fake server's `llm.url` would be): a closed port, a raw server. */
  baseUrl?: string;
  contextWindow?: number;
}

/** A world whose fake provider speaks `api`, with fast retries unless `settings.retry` says otherwise. */
export async function faultWorld(api: FixtureApi, script: Script, options: FaultWorldOptions = {}): Promise<PigWorld> {
  const world = await createWorld({
    api,
    llm: { script },
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    settings: { retry: FAST_RETRY, ...options.settings },
  });
  worlds.push(world);
  if (options.baseUrl) {
    const models = fakeModelsJson(options.baseUrl, { api, ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}) });
    writeFileSync(join(world.agentDir, "models.json"), JSON.stringify(models, null, 2));
  }
  return world;
}

/** The URL pig posts to for `api` when the provider's server is at `base` (`llm.url` style). */
export function endpointFor(api: FixtureApi, base: string): string {
  if (api === "anthropic-messages") return `${base}/v1/messages`;
  return api === "openai-completions" ? `${base}/v1/chat/completions` : `${base}/v1/responses`;
}

export interface BoundedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs pig to its end; a run still going at the bound is killed and fails the case as a hang. */
export async function runPig(world: PigWorld, args: string[]): Promise<BoundedRun> {
  const proc = Bun.spawn([pigBinary(), ...args], { cwd: world.cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let hung = false;
  const bound = setTimeout(() => {
    hung = true;
    proc.kill(9);
  }, RUN_BOUND_MS);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(bound);
  if (hung) throw new Error(`pig hung: still running after ${RUN_BOUND_MS / 1000}s; stderr: ${stderr.slice(-500)}`);
  return { code, stdout, stderr };
}

/** The JSON lines of a `--mode json` run (each must parse). */
export function jsonEvents(stdout: string): Record<string, unknown>[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
      }
    });
}

/** print mode's retry lines on stderr. */
export function retryLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => /^pig: fake\/fake-model: .* — retry \d+\/\d+ in \d/.test(line));
}

/**
 * The final failure line: what failed (provider/model), where (the URL), after how many attempts,
 * and `reason`. Returns the reason as shown.
 */
export function expectFailureLine(stderr: string, url: string, attempts: number, reason: RegExp): string {
  const last = stderr.trimEnd().split("\n").at(-1) ?? "";
  const head = `pig: fake/fake-model at ${url} failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: `;
  expect(last.startsWith(head) ? head : last).toBe(head);
  const shown = last.slice(head.length);
  expect(shown).toMatch(reason);
  return shown;
}

export type Entry = Record<string, unknown>;
export type Message = Record<string, unknown> & { role: string };

/** Every session file the world's runs wrote. */
export function sessionFiles(world: PigWorld): string[] {
  const root = join(world.agentDir, "sessions");
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => join(root, dir, name)),
  );
}

/** The session file is small (no error body is kept whole), every line parses. */
function readEntries(file: string): Entry[] {
  expect(statSync(file).size).toBeLessThan(512 * 1024);
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line, i) => {
      try {
        return JSON.parse(line) as Entry;
      } catch {
        throw new Error(`${file}:${i + 1} does not parse: ${line.slice(0, 200)}`);
      }
    });
}

/**
 * Checks the world's only session file and returns its messages: every line parses; a failed or
 * aborted answer is recorded with its error; every tool call of an answer that completed has
 * exactly one result and every result has its call; `pig sessions show` reopens it cleanly.
 */
export async function checkSession(world: PigWorld): Promise<Message[]> {
  const files = sessionFiles(world);
  expect(files).toHaveLength(1);
  const file = files[0]!;
  const messages = readEntries(file)
    .filter((e) => e.type === "message")
    .map((e) => e.message as Message);
  const calls = new Map<string, number>();
  const results = new Map<string, number>();
  for (const m of messages) {
    if (m.role === "assistant") {
      const stop = m.stopReason as string;
      if (stop === "error" || stop === "aborted") {
        expect(typeof m.errorMessage === "string" && m.errorMessage.length > 0 ? "recorded" : m).toBe("recorded");
        continue;
      }
      for (const block of m.content as { type: string; id?: string }[]) {
        if (block.type === "toolCall") calls.set(block.id!, (calls.get(block.id!) ?? 0) + 1);
      }
    } else if (m.role === "toolResult") {
      const id = m.toolCallId as string;
      results.set(id, (results.get(id) ?? 0) + 1);
    }
  }
  expect([...calls.keys()].filter((id) => results.get(id) !== 1)).toEqual([]);
  expect([...results.keys()].filter((id) => !calls.has(id))).toEqual([]);
  const show = Bun.spawnSync([pigBinary(), "sessions", "show", file], { cwd: world.cwd, env: world.env, stdout: "pipe", stderr: "pipe" });
  expect({ code: show.exitCode, stderr: show.stderr.toString() }).toEqual({ code: 0, stderr: "" });
  expect(show.stdout.toString().length).toBeGreaterThan(0);
  return messages;
}

/** The assistant messages of a session, in order. */
export function answers(messages: Message[]): Message[] {
  return messages.filter((m) => m.role === "assistant");
}

export { closedPort } from "../helpers/closed-port.ts";

/**
 * A server that answers every request with the headers of an event stream and then nothing
 * (the fake server's streams send their headers with the first frame). `requests` counts them.
 */
export function headersOnlyServer(): { url: string; requests: () => number; close: () => void } {
  let requests = 0;
  const seen = new WeakMap<object, string>();
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, data) {
        const text = (seen.get(socket) ?? "") + data.toString("latin1");
        seen.set(socket, text);
        // Once per request: as soon as its header block is complete.
        if (!text.includes("\r\n\r\n") || text.includes("\u0000answered")) return;
        seen.set(socket, `${text}\u0000answered`);
        requests++;
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\ncache-control: no-cache\r\n\r\n");
        socket.flush();
      },
    },
  });
  return { url: `http://127.0.0.1:${listener.port}`, requests: () => requests, close: () => listener.stop(true) };
}

/** pig's peak resident memory so far (VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * For cases that mostly wait (stalls, retry-after): starts every case's check at once, at most
 * `limit` at a time, and gives `runCases` a check that reports each one's outcome in order.
 */
export function concurrently<T>(cases: readonly T[], limit: number, check: (c: T) => Promise<void>): (c: T, index: number) => Promise<void> {
  let free = limit;
  const queue: (() => void)[] = [];
  const slot = async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => queue.push(resolve));
  };
  const done = () => {
    const next = queue.shift();
    if (next) next();
    else free++;
  };
  // Settled outcomes, never rejected promises: a failure is reported when runCases reaches it.
  const outcomes = cases.map(async (c) => {
    await slot();
    try {
      await check(c);
      return undefined;
    } catch (error) {
      return error as Error;
    } finally {
      done();
    }
  });
  return async (_c, index) => {
    const error = await outcomes[index];
    if (error) throw error;
  };
}

export interface RpcRunOptions {
  contextWindow?: number;
  /**
   * Peak memory (bytes) pig must stay under: once its VmHWM passes it, pig is killed and the run
   * fails at once, saying how far the answer had come, instead of waiting out a run that would
   * take minutes on the way to gigabytes.
   */
  peakBound?: number;
}

/** Runs one prompt over RPC, waits until pig is idle, and reads its peak memory while it still runs. */
export async function rpcRun(api: FixtureApi, script: Script, options: RpcRunOptions = {}) {
  const world = await faultWorld(api, script, options.contextWindow ? { contextWindow: options.contextWindow } : {});
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  const watch = options.peakBound === undefined ? undefined : watchPeak(client.pid, options.peakBound);
  try {
    const from = client.lines.length;
    const accepted = await client.request({ type: "prompt", message: "go" });
    expect(accepted.success).toBe(true);
    const ended = client.waitFor((l) => l.type === "agent_end", 60_000, from);
    if (watch) {
      const passed = await Promise.race([ended.then(() => undefined), watch.passed]);
      if (passed !== undefined) {
        client.kill();
        ended.catch(() => {});
        const deltas = client.lines.slice(from).filter((l) => l.type === "message_update").length;
        throw new Error(`pig's peak memory passed ${mib(options.peakBound!)} (${mib(passed)}) after ${deltas} message_update events`);
      }
    } else {
      await ended;
    }
    // Idle means the run, its retries and their waits are over.
    for (;;) {
      const state = await client.request({ type: "get_state" }, 60_000);
      if ((state.data as { isStreaming: boolean }).isStreaming === false) break;
    }
    const peak = peakRss(client.pid);
    return { peak, lines: client.lines.slice(from), world };
  } finally {
    watch?.stop();
    await client.close();
  }
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * Resolves `passed` with pig's peak memory once it is over `bound`. VmHWM only grows, so a peak
 * over the bound is seen here or, at the latest, by the reading after the run.
 */
function watchPeak(pid: number, bound: number): { passed: Promise<number>; stop: () => void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const passed = new Promise<number>((resolve) => {
    timer = setInterval(() => {
      let peak: number;
      try {
        peak = peakRss(pid);
      } catch {
        return; // pig has exited; the run's own end says why
      }
      if (peak > bound) {
        clearInterval(timer);
        resolve(peak);
      }
    }, 100);
  });
  return { passed, stop: () => clearInterval(timer) };
}
