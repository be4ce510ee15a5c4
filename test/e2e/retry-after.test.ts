/**
 * A rate-limited answer that says how long to wait is retried after that wait, not after the
 * longer backoff: `retry-after` in seconds or as an HTTP date, and `retry-after-ms`. A wait past
 * `retry.provider.maxRetryDelayMs` is not retried at all (the cap upstream keeps too).
 */
import { afterAll, expect, test } from "bun:test";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import type { ScriptResponse } from "../helpers/fake-llm/script.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
});

function limited(headers: Record<string, string>): ScriptResponse {
  return { error: { status: 429, message: "Too many requests", headers } };
}

/** The retry events of one JSON-mode run against `responses`. */
async function retries(responses: ScriptResponse[], retry: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  const world = await createWorld({ llm: { script: responses }, settings: { retry } });
  worlds.push(world);
  const run = await world.run(["--mode", "json", "go"]);
  expect(run.code).toBe(0);
  return run.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => String(event.type).startsWith("auto_retry"));
}

test("retry-after: 1 waits one second, not the 2 s backoff", async () => {
  const events = await retries([limited({ "retry-after": "1" }), { text: "ok" }]);
  expect(events).toEqual([
    { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 1000, errorMessage: expect.stringContaining("429") },
    { type: "auto_retry_end", success: true, attempt: 1 },
  ]);
});

test("every attempt honours the server: two 429s with retry-after: 1 wait 1 s each, not 2 s then 4 s", async () => {
  const events = await retries([{ ...limited({ "retry-after": "1" }), repeat: 2 }, { text: "ok" }]);
  expect(events.filter((e) => e.type === "auto_retry_start").map((e) => e.delayMs)).toEqual([1000, 1000]);
});

test("retry-after as an HTTP date: the time until then, shorter than the backoff", async () => {
  const at = new Date(Date.now() + 2000).toUTCString();
  // A long backoff, so that waiting for it instead of the date shows.
  const events = await retries([limited({ "retry-after": at }), { text: "ok" }], { baseDelayMs: 8000 });
  const delay = events[0]!.delayMs as number;
  expect(delay).toBeGreaterThanOrEqual(0);
  expect(delay).toBeLessThanOrEqual(2000);
  expect(events[1]).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
});

test("retry-after-ms: the milliseconds asked for", async () => {
  const events = await retries([limited({ "retry-after-ms": "150" }), { text: "ok" }]);
  expect(events[0]).toMatchObject({ type: "auto_retry_start", delayMs: 150 });
});
