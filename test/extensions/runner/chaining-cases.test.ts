/**
 * The TypeScript runner chains one extension's handlers as the event table says: every case of
 * test/fixtures/extension-events/chaining.json (which the Python and Go SDKs' tests run too).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionContext, ExtensionHandler } from "../../../src/extensions/api/types.ts";
import { runEventHandlers } from "../../../src/extensions/runner/events.ts";
import { EXTENSION_EVENT_NAMES, extensionEvent } from "../../../src/util/extension-events.ts";

interface ChainingCase {
  name: string;
  event: string;
  payload: Record<string, unknown>;
  handlers: unknown[];
  result?: unknown;
  calls: number;
  seen?: { field: string; values: unknown[] };
  errors?: number;
  throws?: boolean;
}

const FILE = join(import.meta.dir, "..", "..", "fixtures", "extension-events", "chaining.json");
const CASES = (JSON.parse(readFileSync(FILE, "utf8")) as { cases: ChainingCase[] }).cases;

function isThrow(answer: unknown): answer is { $throw: string } {
  return typeof answer === "object" && answer !== null && "$throw" in answer;
}

test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
  const seen: unknown[] = [];
  let calls = 0;
  const handlers: ExtensionHandler[] = c.handlers.map((answer) => (event: Record<string, unknown>) => {
    calls++;
    if (c.seen) seen.push(structuredClone(event[c.seen.field]));
    if (isThrow(answer)) throw new Error(answer.$throw);
    return answer === null ? undefined : structuredClone(answer);
  }) as unknown as ExtensionHandler[];
  const errors: string[] = [];
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const run = runEventHandlers("chain", c.event, structuredClone(c.payload), handlers, {} as ExtensionContext, (event) => errors.push(event));
    if (c.throws) await expect(run).rejects.toThrow();
    else expect(await run).toEqual(c.result);
  } finally {
    process.stderr.write = stderr;
  }
  expect(calls).toBe(c.calls);
  if (c.seen) expect(seen).toEqual(c.seen.values);
  expect(errors.length).toBe(c.errors ?? 0);
});

test("the cases cover every way of combining answers the event table uses", () => {
  const rules = new Set(CASES.map((c) => (extensionEvent(c.event)?.kind === "request" ? (extensionEvent(c.event) as { combine: { rule: string } }).combine.rule : "none")));
  for (const name of EXTENSION_EVENT_NAMES) {
    const info = extensionEvent(name)!;
    if (info.kind === "request" && !info.neverSent) expect(`${name}: ${rules.has(info.combine.rule)}`).toBe(`${name}: true`);
  }
});
