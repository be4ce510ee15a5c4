/**
 * get_state's messageCount is counted from the session's plan, before any message is read back
 * from the file: it must be the length get_messages then gives, for sessions written by Pi with
 * compactions, branches, custom messages and bash runs.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "pi-0.87.1");
const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const sessions = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl") && /compaction|branching|bash|custom|basic/.test(f));

test("the fixtures cover compactions, branches and bash runs", () => {
  expect(sessions.length).toBeGreaterThanOrEqual(5);
});

for (const name of sessions) {
  test(`${name}: messageCount before the messages are read equals get_messages' length`, async () => {
    const w = await createWorld({ llm: { mode: "text" } });
    worlds.push(w);
    const file = join(w.cwd, name);
    // The header's working directory must exist: the session is moved into the test's cwd.
    const [header, ...rest] = readFileSync(join(FIXTURES, name), "utf8").split("\n");
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(header!), cwd: w.cwd }), ...rest].join("\n"));
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["--session", file] });
    clients.push(client);
    const state = await client.request({ type: "get_state" });
    const messages = await client.request({ type: "get_messages" });
    const count = (state.data as { messageCount: number }).messageCount;
    const list = (messages.data as { messages: unknown[] }).messages;
    expect(list.length).toBeGreaterThan(0);
    expect(count).toBe(list.length);
    // Once read, the count is the array's.
    expect(((await client.request({ type: "get_state" })).data as { messageCount: number }).messageCount).toBe(list.length);
  });
}
