/**
 * get_messages of a long session: the answer is written in pieces as its JSON is made
 * (util/json-pieces.ts). Over the real binary, it must still be one line holding exactly the
 * conversation, and the next answer a line of its own.
 */
import { afterAll, expect, test } from "bun:test";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const TURNS = 400;

/** A session of TURNS user/assistant pairs, texts with quotes, line breaks and characters beyond Latin-1. */
function writeLongSession(dir: string, cwd: string): { file: string; messages: unknown[] } {
  const messages: unknown[] = [];
  const lines: object[] = [{ ...HEADER, cwd }];
  let parent: string | null = null;
  for (let i = 0; i < TURNS * 2; i++) {
    const message = i % 2 === 0 ? user(`question ${i}: "quoted"\nnext line é 中文 🐷`) : assistant(`answer ${i} \\ backslash\ttab`);
    const id = `e${String(i).padStart(7, "0")}`;
    messages.push(message);
    lines.push(msg(id, parent, message));
    parent = id;
  }
  return { file: writeSession(lines, { dir, name: "long.jsonl" }), messages };
}

test("get_messages of a long session is one line with every message, and the next answer follows on its own line", async () => {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  const { file, messages: written } = writeLongSession(w.cwd, w.cwd);
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
