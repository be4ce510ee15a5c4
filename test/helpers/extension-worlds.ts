/**
 * What the extension end-to-end tests share: worlds (agent dir, cwd, fake model) and RPC clients
 * that are all closed after the test file, and fixture paths. Call it at a test file's top level,
 * so the clean-up belongs to that file.
 */
import { afterAll } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Script } from "./fake-llm/server.ts";
import { createWorld, type PigRun, type PigWorld, type WorldOptions } from "./pig-env.ts";
import type { RpcClient } from "./rpc-client.ts";

export const EXTENSION_FIXTURES = join(import.meta.dir, "..", "fixtures", "extensions");

export function extensionWorlds() {
  const worlds: PigWorld[] = [];
  const clients: RpcClient[] = [];
  afterAll(async () => {
    for (const c of clients.splice(0)) c.kill();
    await Promise.all(worlds.splice(0).map((w) => w.close()));
  });
  return {
    /** A world whose model follows `script`, or answers "ok" to everything without one. */
    async world(script?: Script, options: WorldOptions = {}): Promise<PigWorld> {
      const w = await createWorld({ ...options, llm: script ? { script } : { mode: "text" } });
      worlds.push(w);
      return w;
    },
    /** Kills `client` after the file (its pig with it). */
    track<C extends RpcClient>(client: C): C {
      clients.push(client);
      return client;
    },
  };
}

type Json = Record<string, any>;

/** Every line of a JSONL file, parsed. */
export function readJsonLines(file: string): Json[] {
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

/**
 * The complete lines of a JSONL file another process may be writing: none when it does not
 * exist yet, and a last line still being written is left out.
 */
export function writtenJsonLines(file: string): Json[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const end = text.lastIndexOf("\n");
  return end < 0 ? [] : text.slice(0, end).split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** The lines of the only session file under `dir` (searched one or two levels deep); fails unless there is exactly one. */
export function onlySessionEntries(dir: string): Json[] {
  const files: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && depth > 0) walk(join(d, e.name), depth - 1);
      else if (e.name.endsWith(".jsonl")) files.push(join(d, e.name));
    }
  };
  walk(dir, 1);
  expect(files).toHaveLength(1);
  return readJsonLines(files[0]!);
}

/**
 * Runs `pig -p` in a world whose model calls the extension tool `tool` once (with `args`) and then
 * says "done"; gives the run and the tool's result as the model got it, parsed as JSON (the tools
 * of these tests report what they saw as one JSON text).
 */
export async function runReportingTool(
  world: (script: Script, options: WorldOptions) => Promise<PigWorld>,
  tool: string,
  options: WorldOptions & { pigArgs: string[]; args?: Json },
): Promise<{ w: PigWorld; run: PigRun; report: Json }> {
  const { pigArgs, args, ...worldOptions } = options;
  const w = await world([{ toolCalls: [{ name: tool, arguments: args ?? {} }] }, { text: "done" }], worldOptions);
  const run = await w.run(["-p", ...pigArgs.map((a) => (a.startsWith("ext/") ? join(w.cwd, a) : a)), `use ${tool}`]);
  const result = w.llm.requests[1] && (w.llm.requests[1].body as { messages: Json[] }).messages.find((m) => m.role === "tool");
  const text = result ? (typeof result.content === "string" ? result.content : result.content.map((p: Json) => p.text ?? "").join("")) : "null";
  return { w, run, report: JSON.parse(text) as Json };
}
