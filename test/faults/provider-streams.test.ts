/**
 * What a provider's stream cannot make pig do, against the real binary for each of the three
 * APIs: hang on keep-alives or a trickle of bytes that never completes an event (the idle timeout
 * counts progress, not bytes), hold one event of many `data:` lines without limit, or take memory
 * in the square of a tool call's argument while it streams.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Script, ScriptResponse } from "../helpers/fake-llm/server.ts";
import type { FixtureApi } from "../helpers/pig-env.ts";
import { runCases } from "./figures.ts";
import {
  answers,
  APIS,
  checkSession,
  concurrently,
  FAST_RETRY,
  faultWorld,
  IDLE_MS,
  retryLines,
  rpcRun,
  runPig,
} from "./provider-helpers.ts";

/** Twice the stall cases' idle time: the retry that follows must not time out on a busy machine. */
const KEEP_ALIVE_IDLE_MS = 2 * IDLE_MS;
const STALL_SETTINGS = { retry: { ...FAST_RETRY, provider: { idleTimeoutMs: KEEP_ALIVE_IDLE_MS } } };
const ok: ScriptResponse = { text: "ok" };

const KEEP_ALIVES = {
  "SSE comments": ": keep-alive\n\n",
  "ping events": 'event: ping\ndata: {"type": "ping"}\n\n',
  "a byte at a time of an event that never ends": "x",
} as const;

describe("provider streams", () => {
  test(`keep-alives or a trickle of bytes after a partial answer end the attempt after retry.provider.idleTimeoutMs (${KEEP_ALIVE_IDLE_MS} ms), and it is retried`, async () => {
    const cases = APIS.flatMap((api) =>
      Object.entries(KEEP_ALIVES).map(([what, keepAlive]) => ({ api, what, keepAlive })),
    );
    const check = concurrently(cases, 3, async ({ api, keepAlive }) => {
      const stalled: ScriptResponse = { text: "an answer that stops half-way", chunkSize: 4, stallAfterChunks: 3, stallKeepAlive: keepAlive, stallKeepAliveMs: 50 };
      const w = await faultWorld(api, [stalled, ok], { settings: STALL_SETTINGS });
      const run = await runPig(w, ["-p", "go"]);
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: "ok\n" });
      const why = /^Stream idle timeout: the server sent no event with content for 2s, only \d+ bytes of keep-alives or of an unfinished event, after \d+ bytes \(retry\.provider\.idleTimeoutMs\)$/;
      expect(retryLines(run.stderr)[0]).toContain(": Stream idle timeout: the server sent no event with content for 2s, only ");
      const messages = await checkSession(w);
      expect(answers(messages)[0]!.stopReason).toBe("error");
      expect(answers(messages)[0]!.errorMessage).toMatch(why);
      // The retry gets the answer (a busy machine may cost one more attempt, never the outcome).
      expect(answers(messages).at(-1)).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "ok" }] });
    });
    const failures = await runCases("keep-alives", cases, (c) => `${c.api} ${c.what}`, check);
    expect(failures).toEqual([]);
  });

  test("one event of 1 GB in 4 KB data lines fails at 16 MiB, naming the provider, and is never held", async () => {
    const ONE_GB = 1024 * 1024 * 1024;
    const baseline = await rpcRun("openai-completions", [ok]);
    expect(baseline.lines.filter((l) => l.type === "message_end").at(-1)!.message).toMatchObject({ stopReason: "stop" });
    const failures = await runCases("100 MB event", APIS, (api) => api, async (api) => {
      const script: Script = [{ raw: { status: 200, contentType: "text/event-stream", body: `data: ${"x".repeat(4000)}\n`, repeatToBytes: ONE_GB } }];
      const { peak, lines, world } = await rpcRun(api, script);
      const ends = lines.filter((l) => l.type === "message_end" && (l.message as { role: string }).role === "assistant");
      expect(ends[0]!.message).toMatchObject({
        stopReason: "error",
        errorMessage: "Malformed event stream from fake: an event longer than 16 MiB (its lines up to the blank line that ends it)",
      });
      // Reading stops at the limit: at most the 16 MiB held until the event's end, never the
      // gigabyte (holding a 100 MB event whole took 680 MB).
      expect(peak).toBeLessThan(baseline.peak + 96 * 1024 * 1024);
      await checkSession(world);
    });
    expect(failures).toEqual([]);
  });

  test("a 4 MB tool-call argument in 16 KB pieces is written whole, in peak memory proportional to its length (Anthropic, Chat Completions)", async () => {
    const SIZE = 4 * 1024 * 1024;
    const line = "0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ\n";
    const content = line.repeat(Math.ceil(SIZE / line.length)).slice(0, SIZE);
    const baseline = await rpcRun("anthropic-messages", [ok]);
    expect(baseline.lines.filter((l) => l.type === "message_end").at(-1)!.message).toMatchObject({ stopReason: "stop" });
    // Measured through the binary: a plain run takes about 55 MB, this one 25 to 30 bytes more
    // for each byte of the argument (the argument, its parses, the file, the session entry, the
    // next request). Parsing the whole argument again for every piece, a character at a time,
    // took about 350 bytes for each byte streamed so far and passed this bound about half-way
    // through the argument; the watch stops pig there instead of waiting minutes for the end.
    // Pieces of 16 KB, not 100 bytes: that old cost grew with the length reached, and small
    // pieces would have taken it minutes to get there.
    const bound = baseline.peak + 100 * SIZE;
    const apis: FixtureApi[] = ["anthropic-messages", "openai-completions"];
    const failures = await runCases("4 MB tool-call argument", apis, (api) => api, async (api) => {
      const script: Script = [
        { toolCalls: [{ name: "write", arguments: { path: "big.txt", content } }], chunkSize: 16 * 1024 },
        { text: "written" },
      ];
      // A context window the argument (about a million tokens) fits in, so nothing is compacted.
      const { peak, lines, world } = await rpcRun(api, script, { contextWindow: 100_000_000, peakBound: bound });
      const ends = lines.filter((l) => l.type === "message_end" && (l.message as { role: string }).role === "assistant");
      expect(ends.map((l) => (l.message as { stopReason: string }).stopReason)).toEqual(["toolUse", "stop"]);
      const pieces = lines.filter((l) => (l.assistantMessageEvent as { type?: string } | undefined)?.type === "toolcall_delta");
      expect(pieces.length).toBeGreaterThanOrEqual(SIZE / (16 * 1024));
      const file = join(world.cwd, "big.txt");
      expect(statSync(file).size).toBe(SIZE);
      expect(readFileSync(file, "utf8") === content).toBe(true);
      expect(peak).toBeLessThan(bound);
    });
    expect(failures).toEqual([]);
  }, 120_000);
});
