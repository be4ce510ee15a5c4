/**
 * The Python examples (examples/extensions/python/, on the SDK in sdk/python) against the built
 * binary and the fake model: each does what its comment promises, the log reaches a Python
 * extension only once it reads it, and a read gives the session file's lines exactly.
 * Fixture: test/fixtures/extensions/python/tracer.py (records what pig sends it).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { EXTENSION_FIXTURES, extensionWorlds } from "../helpers/extension-worlds.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD, expectContextFiltered } from "../helpers/context-filter-scenario.ts";

const EXAMPLES = resolve(import.meta.dir, "..", "..", "examples", "extensions", "python");
const SDK_PACKAGE = resolve(import.meta.dir, "..", "..", "sdk", "python", "pig_ext");
const TRACER = join(EXTENSION_FIXTURES, "python", "tracer.py");
const ALL = ["permission-gate", "progress-tool", "word-count-command", "context-filter", "prompt-counter", "session-reader"];
const example = (name: string) => ["-e", join(EXAMPLES, `${name}.py`)];

const { world, track } = extensionWorlds();

type Json = Record<string, any>;
const dataOf = (response: Line) => response.data as Json;
const uiRecord = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;

async function rpc(args: string[], script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args }));
  return { w, client };
}

async function sessionFile(client: RpcClient): Promise<string> {
  return String(dataOf(await client.request({ type: "get_state" })).sessionFile);
}

/** Runs `/name args` and waits for the notice it gives. */
async function command(client: RpcClient, text: string): Promise<Line> {
  const from = client.lines.length;
  expect(await client.request({ type: "prompt", message: text })).toMatchObject({ success: true });
  return client.waitFor(uiRecord("notify"), 15_000, from);
}

const chatText = (message: Json): string =>
  typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");

test("the Python examples load into one run: the tool is offered and runs, the gate blocks a risky command without a UI", async () => {
  const w = await world(
    {
      responses: [
        { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt"] } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] },
        { text: "done" },
      ],
    },
    { files: { "a.txt": "one\ntwo\nthree\n" } },
  );
  const run = await w.run([...ALL.flatMap(example), "-p", "count the lines"]);
  expect(run.stderr).not.toContain("Failed to load extension");
  expect(run.code).toBe(0);
  const first = w.llm.requests[0]!.body as { tools: { function: { name: string } }[] };
  expect(first.tools.map((t) => t.function.name)).toContain("count_lines");
  const texts = w.llm.requests.map((r) => JSON.stringify(r.body));
  expect(texts[1]).toContain("a.txt: 3");
  expect(texts[2]).toContain("Blocked without confirmation: rm -rf ./a.txt");
  expect(existsSync(join(w.cwd, "a.txt"))).toBe(true);
});

describe("each Python example does what it says", () => {
  test("permission-gate: a risky command asks the client; declined it is blocked, accepted it runs", async () => {
    const { w, client } = await rpc(
      example("permission-gate"),
      [
        { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./one" } }] },
        { text: "declined" },
        { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./two" } }] },
        { text: "removed" },
      ],
      { files: { one: "1", two: "2" } },
    );
    let from = client.lines.length;
    const declined = client.promptAndWait("remove one");
    const ask = await client.waitFor(uiRecord("confirm"), 15_000, from);
    expect(ask).toMatchObject({ title: "Run this command?", message: "rm -rf ./one" });
    client.send({ type: "extension_ui_response", id: ask.id, confirmed: false });
    await declined;
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("The user declined this command.");
    expect(existsSync(join(w.cwd, "one"))).toBe(true);

    from = client.lines.length;
    const accepted = client.promptAndWait("remove two");
    const again = await client.waitFor(uiRecord("confirm"), 15_000, from);
    client.send({ type: "extension_ui_response", id: again.id, confirmed: true });
    await accepted;
    expect(existsSync(join(w.cwd, "two"))).toBe(false);
    expect(await client.close()).toBe(0);
  });

  test("progress-tool: one update per file reaches the client, then the counts", async () => {
    const { w, client } = await rpc(example("progress-tool"), [{ toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "b.txt"] } }] }, { text: "counted" }], {
      files: { "a.txt": "1\n2\n", "b.txt": "x" },
    });
    await client.promptAndWait("count");
    const updates = client.lines.filter((l) => l.type === "tool_execution_update").map((l) => chatText((l as Json).partialResult));
    expect(updates).toEqual(["1/2: a.txt", "2/2: b.txt"]);
    const end = client.lines.find((l) => l.type === "tool_execution_end") as Json;
    expect(end.result.details).toEqual({ counts: { "a.txt": 2, "b.txt": 1 } });
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("a.txt: 2\\nb.txt: 1");
    expect(await client.close()).toBe(0);
  });

  test("word-count-command: /words counts its argument, or the last answer, as a notice, and is listed", async () => {
    const { w, client } = await rpc(example("word-count-command"), [{ text: "alpha beta gamma delta" }]);
    expect(await command(client, "/words one two three")).toMatchObject({ message: "3 words", notifyType: "info" });
    expect(w.llm.requests).toHaveLength(0);
    await client.promptAndWait("say four words");
    expect(await command(client, "/words")).toMatchObject({ message: "4 words" });
    const commands = dataOf(await client.request({ type: "get_commands" })).commands as Json[];
    expect(commands.find((c) => c.name === "words")).toMatchObject({ description: "Count the words of the text given, or of the last answer" });
    expect(await client.close()).toBe(0);
  });

  test("context-filter: a tool result over 4,000 characters is shortened in the request, whole in the session file", async () => {
    const w = await world(CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD);
    await expectContextFiltered(w, example("context-filter"));
  });

  test("prompt-counter: each prompt leaves a count in the session file; /count tells it", async () => {
    const { w, client } = await rpc(example("prompt-counter"));
    await client.promptAndWait("one");
    await client.promptAndWait("two");
    const file = await sessionFile(client);
    const counts = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "custom" && e.customType === "prompt-counter");
    expect(counts.map((e) => e.data)).toEqual([{ count: 1 }, { count: 2 }]);
    expect(JSON.stringify(w.llm.requests[1]!.body)).not.toContain("prompt-counter");
    expect(await command(client, "/count")).toMatchObject({ message: "2 prompts on this branch", notifyType: "info" });
    expect(await client.close()).toBe(0);
  });

  test("session-reader: get_entries gives the session file's entry lines exactly, get_branch the branch", async () => {
    const { w, client } = await rpc(example("session-reader"), [{ text: "caf\u00e9 \u2028 \ud83d\udc37 answer" }, { text: "second" }]);
    await client.promptAndWait("first \u2029 prompt");
    await client.promptAndWait("again");
    const notice = await command(client, "/session export.jsonl");
    const lines = readFileSync(await sessionFile(client), "utf8").split("\n");
    expect(lines.pop()).toBe("");
    const entries = lines.slice(1);
    const leaf = JSON.parse(entries.at(-1)!).id;
    expect(notice.message).toStartWith(`${entries.length} entries, ${entries.length} on this branch`);
    expect(notice.message).toEndWith(`; leaf ${leaf}`);
    // Byte for byte: the export is the file without its header.
    expect(readFileSync(join(w.cwd, "export.jsonl"), "utf8")).toBe(entries.map((l) => `${l}\n`).join(""));

    // A new session replaces the copy: the reader now sees the new file's lines.
    expect(await client.request({ type: "new_session" })).toMatchObject({ success: true });
    await client.promptAndWait("in the new session");
    await command(client, "/session export2.jsonl");
    const fresh = readFileSync(await sessionFile(client), "utf8").split("\n").slice(1).join("\n");
    expect(fresh).not.toBe("");
    expect(readFileSync(join(w.cwd, "export2.jsonl"), "utf8")).toBe(fresh);
    expect(fresh).toContain('"text":"in the new session"');
    expect(fresh).not.toContain('"text":"again"');
    expect(await client.close()).toBe(0);
  });
});

describe("the Python SDK on the socket", () => {
  test("lazy replication: no session.* frame reaches a Python extension until it reads the log, then appends do", async () => {
    const { client, w } = await rpc(["-e", TRACER]);
    await client.promptAndWait("one");
    await client.promptAndWait("two");
    await client.promptAndWait("/methods before.txt");
    const before = readFileSync(join(w.cwd, "before.txt"), "utf8").split("\n").filter(Boolean);
    // It heard pig (state, the events it subscribed to, its command) but nothing of the log.
    expect(before).toContain("event");
    expect(before).toContain("command.run");
    expect(before.filter((m) => m.startsWith("session."))).toEqual([]);

    const entries = readFileSync(await sessionFile(client), "utf8").trimEnd().split("\n").length - 1;
    expect(await command(client, "/subscribe")).toMatchObject({ message: `${entries} entries` });
    await client.promptAndWait("three");
    await client.promptAndWait("/methods after.txt");
    const after = readFileSync(join(w.cwd, "after.txt"), "utf8").split("\n").filter(Boolean);
    expect(after.filter((m) => m.startsWith("session."))).toContain("session.appended");
    expect(await client.close()).toBe(0);
  });

  test("an abort cancels a running Python tool: its task is cancelled and the token set", async () => {
    const { w, client } = await rpc(["-e", TRACER], [{ toolCalls: [{ name: "wait_cancel", arguments: {} }] }, { text: "never" }]);
    const from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "wait" })).toMatchObject({ success: true });
    await client.waitFor((l) => l.type === "tool_execution_update", 15_000, from);
    expect(await client.request({ type: "abort" })).toMatchObject({ success: true });
    await client.waitIdle(from);
    const cancelled = join(w.cwd, "cancelled.txt");
    await client.waitFor(() => existsSync(cancelled) && readFileSync(cancelled, "utf8").endsWith("\n"), 15_000);
    expect(readFileSync(cancelled, "utf8")).toBe("cancelled=True\n");
    expect(await client.close()).toBe(0);
  });
});

describe("the Python SDK beyond the examples", () => {
  test("messages over the frame limit cross both ways as $/part: a 9 MiB prompt in (input), a 9 MiB result out", async () => {
    const size = 9 * 1024 * 1024;
    const prompt = `${"é".repeat(size / 2)} \u2028 ${"\ud83d\udc37".repeat(7)}`;
    // What is tested is the socket carrying the result whole: the output bound, which would cut
    // it for the model, is raised above it.
    const toolOutput = { maxLines: 1_000_000, maxBytes: 4 * size };
    const { client } = await rpc(["-e", TRACER], [{ toolCalls: [{ name: "sizes", arguments: { reply: size + 3 } }] }, { text: "sized" }], {
      settings: { toolOutput },
    });
    // 18 MiB through the socket in slices, both ways: on a loaded machine that is well over 20 s.
    await client.promptAndWait(prompt, 55_000);
    const end = client.lines.find((l) => l.type === "tool_execution_end") as Json;
    expect(end.isError).toBe(false);
    // Python counts code points; the pig emoji is two UTF-16 units in JavaScript.
    expect(end.result.details).toEqual({ received: prompt.length - 7 });
    expect(chatText(end.result).length).toBe(size + 3);
    expect(await client.close()).toBe(0);
  }, 90_000);

  test("a tool registered after start-up (from a command) is offered to the model", async () => {
    const { w, client } = await rpc(["-e", TRACER]);
    expect(await command(client, "/late")).toMatchObject({ message: "registered" });
    await client.promptAndWait("hello");
    const tools = (w.llm.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(tools).toContain("late_tool");
    expect(client.lines.filter((l) => l.type === "extension_error")).toEqual([]);
    expect(await client.close()).toBe(0);
  });

  test("an extension with the pig_ext directory next to it runs without PYTHONPATH or an install", async () => {
    const dir = tempDir("pig-py-ext-");
    cpSync(join(EXAMPLES, "word-count-command.py"), join(dir, "words.py"));
    cpSync(SDK_PACKAGE, join(dir, "pig_ext"), { recursive: true, filter: (src) => !src.includes("__pycache__") });
    const { client } = await rpc(["-e", join(dir, "words.py")]);
    expect(await command(client, "/words one two")).toMatchObject({ message: "2 words" });
    // It was this copy that ran: Python compiled it beside the file.
    expect(existsSync(join(dir, "pig_ext", "__pycache__"))).toBe(true);
    expect(await client.close()).toBe(0);
  });
});
