/**
 * The interceptable extension events, through the built binary and real extension processes:
 * for each, what a handler returns changes what pig does — in the model request, the session
 * file or the RPC output. Two handlers chained on `context` and `tool_call` show the chain rules.
 * Fixtures: test/fixtures/extensions/hooks/.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { extensionWorlds, onlySessionEntries, readJsonLines, writtenJsonLines } from "../helpers/extension-worlds.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";

const HOOKS = join(import.meta.dir, "..", "fixtures", "extensions", "hooks");
const ext = (name: string) => join(HOOKS, `${name}.ts`);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

async function rpc(extensions: string[], script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = new RpcClient({ cwd: w.cwd, env: w.env, args: extensions.flatMap((name) => ["-e", ext(name)]) });
  track(client);
  return { w, client };
}

const dataOf = (response: Line) => response.data as Json;
const bodyOf = (w: PigWorld, index: number) => w.llm.requests[index]!.body as Json;
const bodyText = (w: PigWorld, index: number) => JSON.stringify(w.llm.requests[index]!.body);

/** The text of an OpenAI chat message, whether its content is a string or parts. */
function chatText(message: Json): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");
}

async function sessionFile(client: RpcClient): Promise<string> {
  return String(dataOf(await client.request({ type: "get_state" })).sessionFile);
}

/** Resolves once `check` holds; fails the test with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const words = "lorem ipsum dolor sit amet ".repeat(30);

describe("input", () => {
  test("a transform changes the prompt the model gets; the session file keeps the transformed text", async () => {
    const w = await world();
    const sessions = tempDir("pig-sessions-");
    const run = await w.run(["-p", "--session-dir", sessions, "-e", ext("input"), "hello there"]);
    expect(run.code).toBe(0);
    expect(w.llm.requests).toHaveLength(1);
    const users = (bodyOf(w, 0).messages as Json[]).filter((m) => m.role === "user").map(chatText);
    expect(users).toEqual(["TRANSFORMED(hello there)"]);
    const stored = onlySessionEntries(sessions).filter((e) => e.type === "message" && e.message.role === "user");
    expect(stored.map((e) => chatText(e.message))).toEqual(["TRANSFORMED(hello there)"]);
  });

  test("handled: no model request is made and nothing is answered", async () => {
    const { w, client } = await rpc(["input"]);
    const response = await client.request({ type: "prompt", message: "skip this one" });
    expect(response).toMatchObject({ success: true });
    // The handler ran (it notes the text) …
    await until(() => existsSync(join(w.cwd, "handled.txt")), "the input handler");
    expect(readFileSync(join(w.cwd, "handled.txt"), "utf8")).toBe("skip this one\n");
    await client.waitIdle();
    // … and took the prompt: no run, no message.
    expect(client.lines.some((l) => l.type === "agent_start")).toBe(false);
    expect((dataOf(await client.request({ type: "get_messages" })).messages as Json[]).filter((m) => m.role !== "system")).toEqual([]);
    // A prompt it does not handle goes through, transformed; it makes the only request.
    await client.promptAndWait("go on");
    expect(w.llm.requests).toHaveLength(1);
    expect(bodyText(w, 0)).toContain("TRANSFORMED(go on)");
    expect(bodyText(w, 0)).not.toContain("skip this one");
    expect(await client.close()).toBe(0);
  });
});

test("tool_result: a patched read result (text and isError) is what the next request carries", async () => {
  const w = await world({
    responses: [{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "done" }],
  }, { files: { "a.txt": "the original file text\n" } });
  const sessions = tempDir("pig-sessions-");
  const run = await w.run(["-p", "--session-dir", sessions, "-e", ext("tool-result"), "read a.txt"]);
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  const tools = (bodyOf(w, 1).messages as Json[]).filter((m) => m.role === "tool");
  expect(tools.map(chatText)).toEqual(["PATCHED[the original file text]"]);
  const stored = onlySessionEntries(sessions).filter((e) => e.type === "message" && e.message.role === "toolResult");
  expect(stored).toHaveLength(1);
  expect(stored[0]!.message).toMatchObject({ toolName: "read", isError: true, content: [{ type: "text", text: "PATCHED[the original file text]" }] });
});

test("message_end: the replaced assistant text is in the RPC events, the session file and the next request", async () => {
  const { w, client } = await rpc(["message-end"], [{ text: "the model's words" }, { text: "second" }]);
  await client.promptAndWait("hi");
  const ends = client.lines.filter((l) => l.type === "message_end" && (l.message as Json).role === "assistant");
  expect(ends.map((l) => chatText(l.message as Json))).toEqual(["REPLACED(the model's words)"]);
  const agentEnd = client.lines.find((l) => l.type === "agent_end") as Json;
  expect(JSON.stringify(agentEnd.messages)).toContain("REPLACED(the model's words)");
  expect(dataOf(await client.request({ type: "get_last_assistant_text" }))).toEqual({ text: "REPLACED(the model's words)" });
  const stored = readJsonLines(await sessionFile(client)).filter((e) => e.type === "message" && e.message.role === "assistant");
  expect(stored.map((e) => chatText(e.message))).toEqual(["REPLACED(the model's words)"]);
  await client.promptAndWait("again");
  const assistants = (bodyOf(w, 1).messages as Json[]).filter((m) => m.role === "assistant").map(chatText);
  expect(assistants).toEqual(["REPLACED(the model's words)"]);
  expect(await client.close()).toBe(0);
});

test("message_end in JSON mode: the printed events carry the replacement", async () => {
  const w = await world({ responses: [{ text: "plain answer" }] });
  const run = await w.run(["--mode", "json", "-p", "-e", ext("message-end"), "hi"]);
  expect(run.code).toBe(0);
  const events = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Json);
  const ends = events.filter((e) => e.type === "message_end" && e.message.role === "assistant");
  expect(ends.map((e) => chatText(e.message))).toEqual(["REPLACED(plain answer)"]);
  // Everything after the message's end has the replacement too.
  const turnEnd = events.find((e) => e.type === "turn_end")!;
  expect(chatText(turnEnd.message)).toBe("REPLACED(plain answer)");
  const agentEnd = events.find((e) => e.type === "agent_end")!;
  expect((agentEnd.messages as Json[]).filter((m) => m.role === "assistant").map(chatText)).toEqual(["REPLACED(plain answer)"]);
});

test("before_provider_request: the payload the handler returns is the body the provider receives", async () => {
  const w = await world();
  const run = await w.run(["-p", "-e", ext("provider-request"), "hello"]);
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(1);
  expect(bodyOf(w, 0)).toMatchObject({ temperature: 0.25, max_tokens: 321, pig_hook_marker: "added-by-hook", model: "fake-model" });
  // The rest of the payload is the handler's copy of pig's: the prompt is still there.
  expect(bodyText(w, 0)).toContain("hello");
});

describe("before_provider_headers", () => {
  for (const api of ["openai-completions", "openai-responses", "anthropic-messages"] as const) {
    test(`${api}: the handlers' edits are the request's headers; credentials are shown as [redacted]`, async () => {
      const w = await world({ responses: [{ text: "fine" }] }, { api });
      const run = await w.run(["-p", "-e", ext("provider-headers"), "hello"]);
      expect(run.code).toBe(0);
      expect(w.llm.requests).toHaveLength(1);
      const headers = w.llm.requests[0]!.headers;
      expect(headers["x-pig-trace"]).toBe("trace-1");
      expect(headers["x-pig-second"]).toBe("2");
      expect(headers["x-stainless-lang"]).toBeUndefined();
      expect(headers["anthropic-dangerous-direct-browser-access"]).toBeUndefined();
      if (api === "anthropic-messages") expect(headers["anthropic-version"]).toBeDefined();
      else expect(headers.authorization).toBeDefined();
      const seen = readJsonLines(join(w.cwd, "headers-seen.jsonl")) as unknown as Record<string, string>[];
      expect(seen).toHaveLength(1);
      // The key is in pig's request, never in what the extension was shown.
      expect(JSON.stringify(seen[0])).not.toContain("fake-key");
      if (api === "anthropic-messages") {
        expect(seen[0]!["anthropic-version"]).toBeDefined();
        expect(seen[0]!["x-api-key"]).toBe("[redacted]");
        expect(headers["x-api-key"]).toBe("fake-key");
      } else {
        expect(headers.authorization).toBe("Bearer fake-key");
      }
    });
  }
});

test("after_provider_response: the handler sees the status of every response", async () => {
  const w = await world({ responses: [{ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "done" }] });
  const run = await w.run(["-p", "-e", ext("provider-response"), "look"]);
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  expect(readFileSync(join(w.cwd, "statuses.txt"), "utf8")).toBe("200\n200\n");
});

test("provider_stream_event: the handler sees each event of the answer's stream, with the model that sent it", async () => {
  const w = await world({ responses: [{ text: "streamed answer" }] });
  const run = await w.run(["-p", "-e", ext("provider-stream"), "look"]);
  expect(run.code).toBe(0);
  const events = readFileSync(join(w.cwd, "stream-events.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  expect(events.length).toBeGreaterThan(1);
  const [first] = events;
  expect(first).toMatchObject({ provider: expect.any(String), api: expect.any(String), model: expect.any(String) });
  for (const event of events) expect({ ...event, data: typeof event.data }).toEqual({ provider: first.provider, api: first.api, model: first.model, data: "object" });
  expect(JSON.stringify(events.map((e) => e.data))).toContain("streamed");
});

test("session_before_compact: a supplied compaction is stored with fromHook, and the model writes no summary", async () => {
  const { w, client } = await rpc(["compact"], [{ text: "one" }, { text: "two" }], { settings: { compaction: { keepRecentTokens: 50 } } });
  await client.promptAndWait(`first ${words}`);
  await client.promptAndWait(`second ${words}`);
  const response = await client.request({ type: "compact" }, 20_000);
  expect(response).toMatchObject({ success: true });
  expect(dataOf(response)).toMatchObject({ summary: "SUMMARY SUPPLIED BY THE HOOK" });
  // Only the two prompts reached the model: no summary request.
  expect(w.llm.requests).toHaveLength(2);
  const compactions = readJsonLines(await sessionFile(client)).filter((e) => e.type === "compaction");
  expect(compactions).toHaveLength(1);
  expect(compactions[0]).toMatchObject({ summary: "SUMMARY SUPPLIED BY THE HOOK", fromHook: true, details: { by: "hooks/compact.ts" } });
  expect(await client.close()).toBe(0);
});

test("session_compact_failed: a failed and a cancelled /compact are reported, with why", async () => {
  const { w, client } = await rpc(["compact-failed"], [{ text: "one" }, { text: "two" }], { settings: { compaction: { keepRecentTokens: 50 } } });
  const failures = () => writtenJsonLines(join(w.cwd, "compact-failed.jsonl"));
  // Nothing to compact yet: a failure, not an abort.
  expect(await client.request({ type: "compact" }, 20_000)).toMatchObject({ success: false });
  await until(() => failures().length === 1, "the first session_compact_failed");
  expect(failures()[0]).toMatchObject({ type: "session_compact_failed", reason: "manual", aborted: false, willRetry: false, fromExtension: false });
  expect(String(failures()[0]!.errorMessage)).toContain("Compaction failed");
  await client.promptAndWait(`first ${words}`);
  await client.promptAndWait(`second ${words}`);
  // The handler cancels this one: aborted, with no error text.
  await client.request({ type: "compact", customInstructions: "cancel" }, 20_000);
  await until(() => failures().length === 2, "the second session_compact_failed");
  expect(failures()[1]).toMatchObject({ type: "session_compact_failed", reason: "manual", aborted: true, willRetry: false, fromExtension: false });
  expect(failures()[1]!.errorMessage).toBeUndefined();
  expect(readJsonLines(await sessionFile(client)).filter((e) => e.type === "compaction")).toEqual([]);
  expect(await client.close()).toBe(0);
});

test("ui_prompt_start / ui_prompt_end: heard around each blocking dialog, while it is open", async () => {
  const { w, client } = await rpc(["ui-prompt"]);
  const notes = () => writtenJsonLines(join(w.cwd, "ui-prompts.jsonl"));
  const dialog = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;
  const response = client.request({ type: "prompt", message: "/ask-twice" });
  const confirm = await client.waitFor(dialog("confirm"));
  // The dialog is open: the start is heard, the end is not.
  await until(() => notes().length === 1, "ui_prompt_start");
  expect(notes()).toEqual([{ type: "ui_prompt_start", reason: "ui_prompt", kind: "confirm", title: "Sure?" }]);
  client.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
  const editor = await client.waitFor(dialog("editor"));
  client.send({ type: "extension_ui_response", id: editor.id, value: "final" });
  expect(await response).toMatchObject({ success: true });
  await until(() => notes().length === 5, "the prompt events and the answers");
  expect(notes()).toEqual([
    { type: "ui_prompt_start", reason: "ui_prompt", kind: "confirm", title: "Sure?" },
    { type: "ui_prompt_end", reason: "ui_prompt", kind: "confirm", title: "Sure?" },
    { type: "ui_prompt_start", reason: "ui_prompt", kind: "editor", title: "Write" },
    { type: "ui_prompt_end", reason: "ui_prompt", kind: "editor", title: "Write" },
    { answers: { sure: true, text: "final" } },
  ]);
  expect(await client.close()).toBe(0);
});

test("resources_discover: after session_start, the extension's skills are in the system prompt and its templates expand", async () => {
  const files = {
    "ext-skills/ext-lint/SKILL.md": "---\nname: ext-lint\ndescription: Lint from an extension\n---\nRun the linter.",
    "ext-prompts/ext-hello.md": "EXPANDED TEMPLATE TEXT",
  };
  const { w, client } = await rpc(["resources"], [{ text: "one" }, { text: "two" }], { files });
  await client.promptAndWait("hi");
  expect(readJsonLines(join(w.cwd, "discover.jsonl"))).toEqual([{ type: "resources_discover", cwd: w.cwd, reason: "startup" }]);
  const system = (bodyOf(w, 0).messages as Json[]).find((m) => m.role === "system" || m.role === "developer")!;
  expect(chatText(system)).toContain("ext-lint");
  expect(chatText(system)).toContain("Lint from an extension");
  await client.promptAndWait("/ext-hello");
  expect(bodyText(w, 1)).toContain("EXPANDED TEMPLATE TEXT");
  expect(await client.close()).toBe(0);
});

test("resources_discover on reload: the paths given then replace the ones given at start", async () => {
  const files = { "first-prompts/first-hello.md": "FIRST TEMPLATE", "second-prompts/second-hello.md": "SECOND TEMPLATE" };
  const { w, client } = await rpc(["resources-reload"], [{ text: "one" }], { files });
  const templates = async () =>
    ((dataOf(await client.request({ type: "get_commands" })).commands as Json[]) ?? []).filter((c) => c.source === "prompt").map((c) => c.name);
  expect(await templates()).toEqual(["first-hello"]);
  expect(await client.request({ type: "prompt", message: "/do-reload" })).toMatchObject({ success: true });
  // The command ends with the host that ran it; the reload goes on. Its end: the new list.
  let now: string[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && now[0] !== "second-hello"; await Bun.sleep(20)) now = await templates();
  expect(now).toEqual(["second-hello"]);
  expect(writtenJsonLines(join(w.cwd, "discover.jsonl")).map((e) => e.reason)).toEqual(["startup", "reload"]);
  await client.promptAndWait("/second-hello");
  expect(bodyText(w, 0)).toContain("SECOND TEMPLATE");
  expect(await client.close()).toBe(0);
});

describe("session_before_* cancel", () => {
  async function withHistory() {
    const r = await rpc(["cancel"], [{ text: "one" }, { text: "two" }]);
    await r.client.promptAndWait("first");
    await r.client.promptAndWait("second");
    return { ...r, file: await sessionFile(r.client) };
  }
  const notes = (w: PigWorld) => writtenJsonLines(join(w.cwd, "cancelled.jsonl"));

  test("session_before_switch: new_session is cancelled and the session stays", async () => {
    const { w, client, file } = await withHistory();
    const before = readFileSync(file, "utf8");
    expect(dataOf(await client.request({ type: "new_session" }))).toEqual({ cancelled: true });
    expect(notes(w)).toEqual([{ type: "session_before_switch", reason: "new" }]);
    expect(await sessionFile(client)).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect((dataOf(await client.request({ type: "get_messages" })).messages as Json[]).map((m) => m.role).filter((r) => r !== "system")).toEqual(["user", "assistant", "user", "assistant"]);
    expect(await client.close()).toBe(0);
  });

  test("session_before_fork: fork is cancelled and the session stays", async () => {
    const { w, client, file } = await withHistory();
    const forkable = dataOf(await client.request({ type: "get_fork_messages" })).messages as Json[];
    const target = forkable.find((m) => m.text === "second")!;
    expect(target).toBeDefined();
    const before = readFileSync(file, "utf8");
    expect(dataOf(await client.request({ type: "fork", entryId: target.entryId }))).toMatchObject({ cancelled: true });
    expect(notes(w)).toEqual([{ type: "session_before_fork", entryId: target.entryId }]);
    expect(await sessionFile(client)).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(await client.close()).toBe(0);
  });

  test("session_before_tree: navigate_tree is cancelled and the leaf stays", async () => {
    const { w, client, file } = await withHistory();
    const all = dataOf(await client.request({ type: "get_entries" })) as { entries: Json[]; leafId: string };
    const firstUser = all.entries.find((e) => e.type === "message" && e.message.role === "user")!;
    const before = readFileSync(file, "utf8");
    const response = await client.request({ type: "navigate_tree", targetId: firstUser.id });
    expect(response).toMatchObject({ success: true });
    expect(dataOf(response)).toMatchObject({ cancelled: true });
    expect(notes(w)).toEqual([{ type: "session_before_tree", targetId: firstUser.id }]);
    expect((dataOf(await client.request({ type: "get_entries" })) as { leafId: string }).leafId).toBe(all.leafId);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(await client.close()).toBe(0);
  });
});

test("user_bash: RPC bash answers with the extension's result and the command does not run", async () => {
  const { w, client } = await rpc(["user-bash"]);
  const response = await client.request({ type: "bash", command: "touch ran.txt && echo really-ran" });
  expect(response).toMatchObject({ success: true });
  expect(dataOf(response)).toMatchObject({ output: "from the extension instead of: touch ran.txt && echo really-ran\n", exitCode: 7, cancelled: false });
  expect(existsSync(join(w.cwd, "ran.txt"))).toBe(false);
  // The supplied outcome is what the session records and the model is told.
  await client.promptAndWait("what happened?");
  expect(bodyText(w, 0)).toContain("from the extension instead of: touch ran.txt");
  expect(bodyText(w, 0)).toContain("Command exited with code 7");
  expect(await client.close()).toBe(0);
});

test("context_with_system: after context, the whole transcript with its system message; what it returns is sent as it is", async () => {
  const w = await world([{ text: "ok" }]);
  const run = await w.run(["-p", "-e", ext("context-with-system"), "hello"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const [seen] = writtenJsonLines(join(w.cwd, "cws.jsonl"));
  expect(seen!.roles[0]).toBe("system");
  expect(seen!.roles.filter((r: string) => r === "system")).toHaveLength(1);
  const body = bodyOf(w, 0) as { messages: Json[]; tools?: unknown[] };
  expect(body.messages[0]).toMatchObject({ role: "system" });
  expect(chatText(body.messages[0]!)).toBe("OWNED PROMPT");
  const rest = body.messages.slice(1).map(chatText);
  expect(rest).toEqual(["hello", "from context", "from context_with_system"]);
  // The returned system message declares no tools: none are offered.
  expect(body.tools ?? []).toEqual([]);
});

describe("two extensions on one event", () => {
  test("context: the second handler sees the first one's change, and the request has both", async () => {
    const w = await world();
    const run = await w.run(["-p", "-e", ext("context-a"), "-e", ext("context-b"), "the prompt"]);
    expect(run.code).toBe(0);
    const users = (bodyOf(w, 0).messages as Json[]).filter((m) => m.role === "user").map(chatText);
    expect(users).toEqual(["the prompt [A] [B saw A]"]);
  });

  test("tool_call: the first extension's block wins, with its reason, in load order", async () => {
    const script: Script = { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "done" }] };
    for (const [order, reason] of [
      [["block-first", "block-second"], "blocked by block-first"],
      [["block-second", "block-first"], "blocked by block-second"],
    ] as const) {
      const w = await world(script);
      const run = await w.run(["-p", ...order.flatMap((name) => ["-e", ext(name)]), "run it"]);
      expect(run.code).toBe(0);
      expect(w.llm.requests).toHaveLength(2);
      const tools = (bodyOf(w, 1).messages as Json[]).filter((m) => m.role === "tool").map(chatText);
      expect(tools).toEqual([reason]);
      expect(existsSync(join(w.cwd, "ran.txt"))).toBe(false);
    }
  });
});
