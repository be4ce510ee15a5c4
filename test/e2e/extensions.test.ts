/**
 * TypeScript extensions through the built binary, loaded with `-e`: their tools, event
 * handlers, commands and flags reach the model and the CLI; a broken one is reported; their
 * runner process is shared and does not outlive pig. Fixtures: test/fixtures/extensions/e2e/.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { extensionWorlds, onlySessionEntries } from "../helpers/extension-worlds.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "e2e");
const ext = (name: string) => join(EXT, name);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

/** The messages of model request `index` (Anthropic Messages: tool results are content blocks). */
function requestMessages(w: PigWorld, index: number): Json[] {
  return (w.llm.requests[index]!.body as { messages: Json[] }).messages;
}

/** Every `tool_result` block sent in request `index`. */
function toolResults(w: PigWorld, index: number): Json[] {
  return requestMessages(w, index).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b: Json) => b.type === "tool_result") : []));
}

function blockText(block: Json): string {
  return typeof block.content === "string" ? block.content : block.content.map((c: Json) => c.text ?? "").join("");
}

/** The text of an OpenAI chat message, whether its content is a string or parts. */
function chatText(message: Json): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");
}


describe("extension tools and events reach the model", () => {
  test("a tool runs in the extension process, its schema is offered and its result goes back", async () => {
    const w = await world(
      [{ toolCalls: [{ name: "secret_keeper", arguments: { asker: "tester" }, id: "toolu_secret" }] }, { text: "got it" }],
      { api: "anthropic-messages" },
    );
    const result = await w.run(["-p", "-e", ext("tool.ts"), "what is the secret?"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("got it\n");
    expect(w.llm.requests).toHaveLength(2);
    // Offered with the JSON schema its TypeBox parameters stand for.
    const tools = (w.llm.requests[0]!.body as { tools: Json[] }).tools;
    expect(tools.find((t) => t.name === "secret_keeper")).toMatchObject({
      name: "secret_keeper",
      description: "Tells the secret to whoever asks",
    });
    expect(tools.find((t) => t.name === "secret_keeper")!.input_schema).toEqual({
      type: "object",
      required: ["asker"],
      properties: { asker: { type: "string", description: "Who asks" } },
    });
    // It ran in another process, with the model's arguments.
    const ran = JSON.parse(readFileSync(join(w.cwd, "tool-ran.json"), "utf8"));
    expect(ran.asker).toBe("tester");
    expect(ran.pid).not.toBe(process.pid);
    expect(typeof ran.pid).toBe("number");
    // Its answer, which only the extension knows, is the tool result of the next request.
    const [toolResult] = toolResults(w, 1);
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_secret" });
    expect(toolResult!.is_error).not.toBe(true);
    expect(blockText(toolResult!)).toBe("the secret for tester is kumquat-7731");
  });

  test("a tool_call handler blocks bash: the model gets an error result with the reason, and nothing ran", async () => {
    const w = await world(
      [{ toolCalls: [{ name: "bash", arguments: { command: "touch ran-marker" }, id: "toolu_bash" }] }, { text: "blocked then" }],
      { api: "anthropic-messages" },
    );
    const result = await w.run(["-p", "-e", ext("block.ts"), "make a marker"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("blocked then\n");
    expect(w.llm.requests).toHaveLength(2);
    const [toolResult] = toolResults(w, 1);
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_bash", is_error: true });
    expect(blockText(toolResult!)).toContain("bash is off limits in this test");
    expect(existsSync(join(w.cwd, "ran-marker"))).toBe(false);
  });

  test("a context handler rewrites what the model sees; the session file keeps what was typed", async () => {
    const w = await world([{ text: "fine" }]);
    const sessions = tempDir("pig-sessions-");
    const result = await w.run(["-p", "--session-dir", sessions, "-e", ext("context.ts"), "original words"]);
    expect(result.code).toBe(0);
    const users = requestMessages(w, 0).filter((m) => m.role === "user");
    expect(users.map(chatText)).toEqual(["REWRITTEN(original words)"]);
    const stored = onlySessionEntries(sessions)
      .filter((e) => e.type === "message" && e.message.role === "user")
      .map((e) => chatText(e.message));
    expect(stored).toEqual(["original words"]);
  });

  test("before_agent_start's custom message is sent right after the user's message", async () => {
    const w = await world([{ text: "noted" }]);
    const result = await w.run(["-p", "-e", ext("before-start.ts"), "the prompt"]);
    expect(result.code).toBe(0);
    const messages = requestMessages(w, 0).filter((m) => m.role !== "system");
    expect(messages.map((m) => [m.role, chatText(m)])).toEqual([
      ["user", "the prompt"],
      ["user", "note-from-before-agent-start"],
    ]);
  });
});

describe("commands and flags", () => {
  test("an extension command runs from -p without asking the model", async () => {
    const w = await world([{ text: "should not be asked" }]);
    const result = await w.run(["-p", "-e", ext("cmd.ts"), "/hello world"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(w.cwd, "hello.txt"), "utf8")).toBe("args=world");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("an extension flag is accepted and its value reaches the extension's before_agent_start", async () => {
    const w = await world([{ text: "hi back" }]);
    const result = await w.run(["-p", "-e", ext("flag.ts"), "--greeting", "hi-there", "say something"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const texts = requestMessages(w, 0).filter((m) => m.role !== "system").map(chatText);
    expect(texts).toEqual(["say something", "greeting-flag=hi-there"]);
  });

  // Upstream's examples (plan-mode, preset, ssh) read their flags in session_start.
  test("an extension flag's value is readable in session_start", async () => {
    const w = await world([{ text: "hi back" }]);
    const result = await w.run(["-p", "-e", ext("flag.ts"), "--greeting", "hi-there", "say something"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(w.cwd, "greeting.json"), "utf8"))).toEqual({ greeting: "hi-there" });
  });

  test("--help with the extension lists its flag; without it the flag is an unknown option", async () => {
    const w = await world();
    const help = await w.run(["--help", "-e", ext("flag.ts")]);
    expect(help.code).toBe(0);
    const line = help.stdout.split("\n").find((l) => l.includes("--greeting"));
    expect(line).toBeDefined();
    expect(line).toContain("A greeting the extension passes on");
    const plain = await w.run(["--help"]);
    expect(plain.stdout).not.toContain("--greeting");

    const unknown = await w.run(["-p", "--greeting", "hi", "say something"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("--greeting");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("a factory that throws: exit 1, naming the extension", async () => {
    const w = await world([{ text: "should not be asked" }]);
    const result = await w.run(["-p", "-e", ext("broken.ts"), "x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Failed to load extension");
    expect(result.stderr).toContain(ext("broken.ts"));
    expect(result.stderr).toContain("broken on purpose");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("rpc get_commands lists the extension's command with source extension", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ext("cmd.ts")] });
    track(client);
    const response = await client.request({ type: "get_commands" });
    expect(response).toMatchObject({ type: "response", command: "get_commands", success: true });
    const commands = (response.data as { commands: Json[] }).commands;
    expect(commands.filter((c) => c.name === "hello")).toEqual([
      expect.objectContaining({ name: "hello", description: "Say hello from the e2e extension", source: "extension" }),
    ]);
    expect(await client.close()).toBe(0);
  });
});

describe("the runner process", () => {
  test("it is gone once a -p run has ended", async () => {
    const w = await world([{ text: "bye" }]);
    const result = await w.run(["-p", "-e", ext("pid.ts"), "hello"]);
    expect(result.code).toBe(0);
    const pid = Number(readFileSync(join(w.cwd, "runner-pid.txt"), "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    // pig waits for its runner before it exits: by now the process is gone, not just told to go.
    expect(() => process.kill(pid, 0)).toThrow();
  });

  test("two extensions share one runner; one throwing in tool_call does not stop the other's tool", async () => {
    const w = await world([
      { toolCalls: [{ name: "bash", arguments: { command: "touch pair-marker" } }] },
      { toolCalls: [{ name: "pair_b_tool", arguments: {} }] },
      { text: "all done" },
    ]);
    const result = await w.run(["-p", "-e", ext("pair-a.ts"), "-e", ext("pair-b.ts"), "go"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("all done\n");
    const pidA = Number(readFileSync(join(w.cwd, "pid-a.txt"), "utf8"));
    const pidB = Number(readFileSync(join(w.cwd, "pid-b.txt"), "utf8"));
    expect(pidA).toBeGreaterThan(0);
    expect(pidB).toBe(pidA);
    // pair-a's failure is reported, and (a failing guard blocks) the bash call did not run.
    expect(result.stderr).toContain(`Extension error (${ext("pair-a.ts")}, tool_call): pair-a exploded on bash`);
    expect(existsSync(join(w.cwd, "pair-marker"))).toBe(false);
    // pair-b's tool, in the same process, still answered.
    expect(w.llm.requests).toHaveLength(3);
    const tool = requestMessages(w, 2).filter((m) => m.role === "tool").at(-1)!;
    expect(chatText(tool)).toBe(`pair-b says zeppelin-${pidB}`);
  });
});
