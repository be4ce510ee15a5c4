/**
 * get_messages of a long session: the answer is written in pieces as its JSON is made
 * (util/json-pieces.ts). Over the real binary, it must still be one line holding exactly the
 * conversation, and the next answer a line of its own.
 */
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const TURNS = 400;

/** A session of TURNS user/assistant pairs, texts with quotes, line breaks and characters beyond Latin-1. */
function writeLongSession(file: string, cwd: string): unknown[] {
  const lines = [JSON.stringify({ type: "session", version: 3, id: "01a232dd-8810-7674-8a6c-dcaa1c0aa7b4", timestamp: "2026-12-01T18:28:28.816Z", cwd })];
  const messages: unknown[] = [];
  let parent: string | null = null;
  for (let i = 0; i < TURNS * 2; i++) {
    const id = `e${String(i).padStart(7, "0")}`;
    const at = 1796149708861 + i;
    const message =
      i % 2 === 0
        ? { role: "user", content: [{ type: "text", text: `question ${i}: "quoted"\nnext line é 中文 🐷` }], timestamp: at }
        : {
            role: "assistant",
            content: [{ type: "text", text: `answer ${i} \\ backslash\ttab` }],
            api: "openai-completions",
            provider: "fake",
            model: "fake-model",
            usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
            stopReason: "stop",
            timestamp: at,
          };
    messages.push(message);
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(at).toISOString(), message }));
    parent = id;
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  return messages;
}

test("get_messages of a long session is one line with every message, and the next answer follows on its own line", async () => {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  const file = join(w.cwd, "long.jsonl");
  const written = writeLongSession(file, w.cwd);
  const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["--session", file] });
  clients.push(client);
  const answer = await client.request({ id: "m", type: "get_messages" });
  expect(answer).toMatchObject({ id: "m", type: "response", command: "get_messages", success: true });
  expect((answer.data as { messages: unknown[] }).messages).toEqual(written);
  const state = await client.request({ id: "s", type: "get_state" });
  expect(state).toMatchObject({ id: "s", type: "response", command: "get_state", success: true });
  expect((state.data as { messageCount: number }).messageCount).toBe(TURNS * 2);
  // Nothing came out that was not a whole JSON line.
  expect(client.strayStdout).toEqual([]);
});
