/** Hand-made session files for tests. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./tmp.ts";

export const HEADER = { type: "session", version: 3, id: "01a22b4b-0000-7000-8000-000000000001", timestamp: "2026-11-30T07:00:00.000Z", cwd: "/work/proj" };

let clock = Date.parse("2026-11-30T07:00:01.000Z");
export function iso(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export function user(text: string, timestamp = clock) {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function assistant(text: string, extra: Record<string, unknown> = {}) {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "fake",
    model: "fake-model",
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: clock,
    ...extra,
  };
}

export function msg(id: string, parentId: string | null, message: object) {
  return { type: "message", id, parentId, timestamp: iso(), message };
}

/** Writes lines (objects are JSON-serialised, strings written as they are) to a new file. */
export function writeSession(lines: (object | string)[], options: { name?: string; trailingNewline?: boolean; dir?: string } = {}): string {
  const path = join(options.dir ?? tempDir(), options.name ?? "session.jsonl");
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");
  writeFileSync(path, options.trailingNewline === false ? text : `${text}\n`);
  return path;
}
