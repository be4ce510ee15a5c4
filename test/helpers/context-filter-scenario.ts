/**
 * The context-filter example's scenario, the same in every language it is written in: the model
 * reads a 200-row file through `read`; the request after it carries the tool result shortened
 * under 4,000 characters (first and last rows kept, a marker for what was left out), while the
 * session file keeps the whole result.
 */
import { expect } from "bun:test";
import { join } from "node:path";
import type { Script } from "./fake-llm/server.ts";
import { readJsonLines } from "./extension-worlds.ts";
import type { PigWorld, WorldOptions } from "./pig-env.ts";
import { tempDir } from "./tmp.ts";

type Json = Record<string, any>;

export const CONTEXT_FILTER_ROWS = Array.from({ length: 200 }, (_, i) => `row-${String(i + 1).padStart(4, "0")} ${"x".repeat(40)}`);
export const CONTEXT_FILTER_SCRIPT: Script = { responses: [{ toolCalls: [{ name: "read", arguments: { path: "big.txt" } }] }, { text: "read it" }] };
export const CONTEXT_FILTER_WORLD: WorldOptions = { files: { "big.txt": `${CONTEXT_FILTER_ROWS.join("\n")}\n` } };

function chatText(message: Json): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");
}

/** Runs `pig -p` with `extension` (its `-e` arguments) in `w` (made from the two constants above) and checks both sides. */
export async function expectContextFiltered(w: PigWorld, extension: readonly string[]): Promise<void> {
  const sessions = tempDir("pig-sessions-");
  const run = await w.run(["-p", "--session-dir", sessions, ...extension, "read big.txt"]);
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  const sent = (w.llm.requests[1]!.body as { messages: Json[] }).messages.filter((m) => m.role === "tool").map(chatText);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.length).toBeLessThan(4000);
  expect(sent[0]).toContain("row-0001");
  expect(sent[0]).toContain("row-0200");
  expect(sent[0]).toMatch(/\[… \d+ lines left out of the context …\]/);
  expect(sent[0]).not.toContain("row-0100");
  const files = (await Array.fromAsync(new Bun.Glob("**/*.jsonl").scan(sessions))).map((f) => join(sessions, f));
  expect(files).toHaveLength(1);
  const stored = readJsonLines(files[0]!).filter((e) => e.type === "message" && e.message.role === "toolResult");
  expect(stored).toHaveLength(1);
  const whole = chatText(stored[0]!.message);
  expect(whole.length).toBeGreaterThan(4000);
  for (const row of CONTEXT_FILTER_ROWS) expect(whole).toContain(row);
}
