/**
 * The example extensions in examples/extensions/, loaded together into one run of the built
 * binary: each registers what it says (tools in the request, commands that run) and their
 * handlers act on the session. Then each example on its own, doing what its comment promises.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD, expectContextFiltered } from "../helpers/context-filter-scenario.ts";

const EXAMPLES = resolve(import.meta.dir, "..", "..", "examples", "extensions");
const ALL = ["permission-gate", "progress-tool", "word-count-command", "context-filter", "custom-compaction", "prompt-counter", "status-line", "session-reader"];
const flags = ALL.flatMap((name) => ["-e", join(EXAMPLES, `${name}.ts`)]);

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

test("the examples load into one run: the tool is offered and runs and the gate blocks a risky command without a UI", async () => {
  const w = await createWorld({
    files: { "a.txt": "one\ntwo\nthree\n" },
    llm: {
      script: {
        responses: [
          { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt"] } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] },
          { text: "done" },
        ],
      },
    },
  });
  worlds.push(w);
  const run = await w.run([...flags, "-p", "count the lines"]);
  expect(run.stderr).not.toContain("Failed to load extension");
  expect(run.code).toBe(0);
  const first = w.llm.requests[0]!.body as { tools: { function: { name: string } }[] };
  expect(first.tools.map((t) => t.function.name)).toContain("count_lines");
  const texts = w.llm.requests.map((r) => JSON.stringify(r.body));
  // The tool ran in the extension process and answered with the file's line count.
  expect(texts[1]).toContain("a.txt: 3");
  // Print mode has nobody to ask: the gate blocked the command, and the file is still there.
  expect(texts[2]).toContain("Blocked without confirmation: rm -rf ./a.txt");
  expect(await Bun.file(join(w.cwd, "a.txt")).exists()).toBe(true);
});

test("a command of an example runs in print mode without a model request", async () => {
  const w = await createWorld({});
  worlds.push(w);
  const run = await w.run([...flags, "-p", "/words one two three"]);
  expect(run.stderr).not.toContain("Failed to load extension");
  expect(run.code).toBe(0);
  expect(w.llm.requests.length).toBe(0);
});

type Json = Record<string, any>;
const example = (name: string) => ["-e", join(EXAMPLES, `${name}.ts`)];
const dataOf = (response: Line) => response.data as Json;
const lorem = "lorem ipsum dolor sit amet ".repeat(30);

async function world(script?: Script, options: WorldOptions = {}): Promise<PigWorld> {
  const w = await createWorld({ ...options, llm: script ? { script } : { mode: "text" } });
  worlds.push(w);
  return w;
}

async function rpc(name: string, script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = new RpcClient({ cwd: w.cwd, env: w.env, args: example(name) });
  clients.push(client);
  return { w, client };
}

function readEntries(file: string): Json[] {
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

async function sessionEntries(client: RpcClient): Promise<Json[]> {
  return readEntries(String(dataOf(await client.request({ type: "get_state" })).sessionFile));
}

const uiRecord = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;

describe("each example does what it says", () => {
  test("context-filter: a tool result over 4,000 characters is shortened in the request, whole in the session file", async () => {
    const w = await world(CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD);
    await expectContextFiltered(w, example("context-filter"));
  });

  test("custom-compaction: the compaction's summary lists the files the compacted turns touched", async () => {
    const { w, client } = await rpc(
      "custom-compaction",
      [
        { toolCalls: [{ name: "read", arguments: { path: "src/a.txt" } }] },
        { text: "read it" },
        { toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: "noted\n" } }] },
        { text: "wrote it" },
        { text: "three" },
      ],
      { settings: { compaction: { keepRecentTokens: 50 } }, files: { "src/a.txt": "alpha\n" } },
    );
    for (const message of [`first ${lorem}`, `second ${lorem}`, `third ${lorem}`]) await client.promptAndWait(message);
    expect(w.llm.requests).toHaveLength(5);
    const response = await client.request({ type: "compact" }, 20_000);
    expect(response).toMatchObject({ success: true });
    const expected = "Earlier in this session these files were read or changed:\n- notes.txt\n- src/a.txt";
    expect(dataOf(response).summary).toBe(expected);
    // Made without a model call.
    expect(w.llm.requests).toHaveLength(5);
    const compactions = (await sessionEntries(client)).filter((e) => e.type === "compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ summary: expected, fromHook: true, details: { files: ["notes.txt", "src/a.txt"] } });
    expect(await client.close()).toBe(0);
  });

  test("prompt-counter: each prompt leaves a count in the session file; /count tells it", async () => {
    const { w, client } = await rpc("prompt-counter");
    await client.promptAndWait("one");
    await client.promptAndWait("two");
    const counts = (await sessionEntries(client)).filter((e) => e.type === "custom" && e.customType === "prompt-counter").map((e) => e.data);
    expect(counts).toEqual([{ count: 1 }, { count: 2 }]);
    // The count is not part of what the model sees.
    expect(JSON.stringify(w.llm.requests[1]!.body)).not.toContain("prompt-counter");
    const from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "/count" })).toMatchObject({ success: true });
    const notice = await client.waitFor(uiRecord("notify"), 15_000, from);
    expect(notice).toMatchObject({ message: "2 prompts on this branch", notifyType: "info" });
    expect(w.llm.requests).toHaveLength(2);
    expect(await client.close()).toBe(0);
  });

  test("status-line: the status goes to the RPC client as setStatus records, ending with the tool count", async () => {
    const { client } = await rpc("status-line", [{ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "listed" }]);
    await client.promptAndWait("list the files");
    const done = await client.waitFor((l) => uiRecord("setStatus")(l) && String(l.statusText).startsWith("done"));
    expect(done).toMatchObject({ statusKey: "run", statusText: "done: 1 tool call" });
    // Fire-and-forget: the record has an id but nothing waits for an answer.
    expect(typeof done.id).toBe("string");
    const texts = client.lines.filter(uiRecord("setStatus")).map((l) => l.statusText);
    expect(texts).toEqual(["working…", "turn 1, 0 tool calls", "turn 2, 1 tool call", "done: 1 tool call"]);
    expect(await client.close()).toBe(0);
  });

  test("word-count-command: /words tells the count of its words, or of the last answer, as an RPC notice", async () => {
    const { w, client } = await rpc("word-count-command", [{ text: "alpha beta gamma delta" }]);
    let from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "/words one two three" })).toMatchObject({ success: true });
    expect(await client.waitFor(uiRecord("notify"), 15_000, from)).toMatchObject({ message: "3 words", notifyType: "info" });
    expect(w.llm.requests).toHaveLength(0);
    await client.promptAndWait("say four words");
    from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "/words" })).toMatchObject({ success: true });
    expect(await client.waitFor(uiRecord("notify"), 15_000, from)).toMatchObject({ message: "4 words" });
    expect(await client.close()).toBe(0);
  });

  test("session-reader: /session counts the log's entries and the branch's by type", async () => {
    const { client } = await rpc("session-reader", [{ text: "one" }, { text: "two" }]);
    await client.promptAndWait("first");
    await client.promptAndWait("second");
    const file = String(((await client.request({ type: "get_state" })).data as Record<string, unknown>).sessionFile);
    const entries = readFileSync(file, "utf8").trimEnd().split("\n").slice(1).map((l) => JSON.parse(l) as { type: string; message?: { role: string } });
    const messages = entries.filter((e) => e.type === "message").length;
    const from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "/session" })).toMatchObject({ success: true });
    const notice = (await client.waitFor(uiRecord("notify"), 15_000, from)) as { message: string };
    expect(notice.message).toStartWith(`${entries.length} entries, ${entries.length} on this branch (`);
    expect(notice.message).toContain(`${messages} message`);
    expect(await client.close()).toBe(0);
  });
});
