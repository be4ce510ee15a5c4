/**
 * Upstream Pi's example extensions (copied verbatim into test/fixtures), run unchanged in one
 * shared runner: every one loads, registers what it declares, and the ones exercised below
 * behave as upstream documents.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { fixture, RunnerHarness } from "./harness.ts";

function examples(dir: string): string[] {
  const root = fixture(dir);
  return readdirSync(root)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${root}/${f}`);
}

const EXAMPLES = [...examples("pi-examples"), fixture("pi-examples", "plan-mode", "index.ts")];
const ex = (name: string): string => fixture("pi-examples", name);
const names = (list: unknown[] | undefined): string[] => (list ?? []).map((x) => String((x as { name?: string; key?: string }).name ?? (x as { key?: string }).key ?? x));

describe("upstream Pi 0.87.1 examples", () => {
  let h: RunnerHarness;
  beforeAll(async () => {
    h = new RunnerHarness({ load: EXAMPLES, hasUI: true, answers: { "ui.select": () => ({ value: "No" }) } });
    await h.start();
    await h.ready();
  });
  afterAll(() => h.stop());

  test("all of them load without an error", () => {
    const failed = h.all("ready").filter((r) => r.params.error);
    expect(failed.map((r) => r.params)).toEqual([]);
    expect(h.all("ready")).toHaveLength(EXAMPLES.length);
  });

  const table: [string, Partial<Record<"tools" | "commands" | "shortcuts" | "flags" | "renderers" | "events", string[]>>][] = [
    ["hello.ts", { tools: ["hello"] }],
    ["todo.ts", { tools: ["todo"], commands: ["todos"], events: ["session_start", "session_tree"] }],
    ["permission-gate.ts", { events: ["tool_call"] }],
    ["protected-paths.ts", { events: ["tool_call"] }],
    ["preset.ts", { commands: ["preset"], shortcuts: ["ctrl+shift+u"], flags: ["preset"], events: ["before_agent_start", "session_start", "turn_start"] }],
    ["tic-tac-toe.ts", { tools: ["tic_tac_toe", "tic_tac_toe_see_board"], commands: ["tic-tac-toe"], renderers: ["tic-tac-toe-move", "tic-tac-toe-game-over"] }],
    ["ssh.ts", { tools: ["read", "write", "edit", "bash"], flags: ["ssh"], events: ["session_start", "user_bash", "before_agent_start"] }],
    ["minimal-mode.ts", { tools: ["read", "bash", "write", "edit", "find", "grep", "ls"] }],
    ["send-user-message.ts", { commands: ["ask", "steer", "followup", "askwith"] }],
    ["session-name.ts", { commands: ["session-name"] }],
    ["bookmark.ts", { commands: ["bookmark", "unbookmark"] }],
    ["tool-override.ts", { tools: ["read"], commands: ["read-log"] }],
    ["bash-spawn-hook.ts", { tools: ["bash"] }],
    ["shutdown-command.ts", { tools: ["finish_and_exit", "deploy_and_exit"], commands: ["quit"] }],
    ["git-checkpoint.ts", { events: ["tool_result", "turn_start", "session_before_fork", "agent_settled"] }],
    ["snake.ts", { commands: ["snake"] }],
    ["custom-compaction.ts", { events: ["session_before_compact"] }],
    ["input-transform.ts", { events: ["input"] }],
    ["message-renderer.ts", { commands: ["status"], renderers: ["status-update"] }],
    ["plan-mode/index.ts", { commands: ["plan", "todos"], shortcuts: ["ctrl+alt+p"], flags: ["plan"] }],
  ];
  for (const [file, expected] of table) {
    test(`${file} registers ${Object.entries(expected).map(([k, v]) => `${k} ${v.join(",")}`).join("; ")}`, () => {
      const reg = h.registrations(ex(file));
      for (const [kind, list] of Object.entries(expected)) expect(names(reg[kind])).toEqual(list);
    });
  }

  test("ssh re-registers the bare read, write and edit tools without prompt lines, bash with its own (as Pi 1.6.0)", () => {
    const tools = h.registrations(ex("ssh.ts")).tools as { name: string; promptSnippet?: string; promptGuidelines?: string[] }[];
    const prompt = Object.fromEntries(tools.map((t) => [t.name, { snippet: t.promptSnippet, guidelines: t.promptGuidelines }]));
    for (const name of ["read", "write", "edit"]) expect(prompt[name]).toEqual({ snippet: undefined, guidelines: undefined });
    expect(prompt.bash?.snippet).toBe("Execute bash commands (ls, grep, find, etc.)");
  });

  test("hello's tool answers", async () => {
    const result = await h.request("tool.execute", { extension: ex("hello.ts"), name: "hello", toolCallId: "h1", args: { name: "World" } });
    expect(result).toEqual({ content: [{ type: "text", text: "Hello, World!" }], details: { greeted: "World" } });
  });

  test("permission-gate asks through ui.select and blocks on No", async () => {
    const result = await h.request("event", { extension: ex("permission-gate.ts"), event: "tool_call", payload: { toolCallId: "p1", toolName: "bash", input: { command: "sudo rm -rf /" } } });
    expect(result).toEqual({ block: true, reason: "Blocked by user" });
    expect(String(h.find("ui.select")?.params.title)).toContain("sudo rm -rf /");
  });

  test("protected-paths blocks a write to .env", async () => {
    const result = await h.request("event", { extension: ex("protected-paths.ts"), event: "tool_call", payload: { toolCallId: "p2", toolName: "write", input: { path: ".env", content: "x" } } });
    expect(result).toMatchObject({ block: true });
  });

  test("session-name sets the name through the host", async () => {
    await h.request("command.run", { extension: ex("session-name.ts"), name: "session-name", args: "Refactor" });
    expect((await h.waitFor(() => h.find("session.setName"), "setName")).params).toEqual({ name: "Refactor" });
  });

  test("todo rebuilds from the session on session_start, then adds", async () => {
    h.notify("event", { extension: ex("todo.ts"), event: "session_start", payload: { reason: "startup" } });
    await h.waitFor(() => h.find("session.subscribe"), "subscribe");
    const result = (await h.request("tool.execute", { extension: ex("todo.ts"), name: "todo", toolCallId: "t1", args: { action: "add", text: "write tests" } })) as { content: { text: string }[]; details: { todos: unknown[] } };
    expect(result.details.todos).toEqual([{ id: 1, text: "write tests", done: false }]);
  });

  test("dynamic-tools registers a tool at runtime, sent as a later register, and it runs", async () => {
    const path = ex("dynamic-tools.ts");
    await h.request("command.run", { extension: path, name: "add-echo-tool", args: "echo_late" });
    const later = await h.waitFor(() => h.find("register", (p) => p.extension === path && names(p.tools as unknown[]).includes("echo_late")), "runtime register");
    expect(names(later.params.tools as unknown[])).toEqual(["echo_late"]);
    const result = await h.request("tool.execute", { extension: path, name: "echo_late", toolCallId: "d1", args: { message: "hey" } });
    expect(result).toEqual({ content: [{ type: "text", text: "[echo_late] hey" }], details: { tool: "echo_late", prefix: "[echo_late] " } });
  });

  test("bash-spawn-hook runs pig's own bash tool", async () => {
    const result = (await h.request("tool.execute", { extension: ex("bash-spawn-hook.ts"), name: "bash", toolCallId: "b1", args: { command: "echo from-pig-bash" } })) as { content: { text: string }[] };
    expect(result.content[0]?.text).toContain("from-pig-bash");
  });
});

describe("upstream Pi 0.73.1 examples (@mariozechner scope)", () => {
  test("all of them load without an error", async () => {
    const list = examples("pi-examples-0.73.1");
    const h = new RunnerHarness({ load: list });
    try {
      await h.start();
      await h.ready();
      expect(h.all("ready").filter((r) => r.params.error).map((r) => r.params)).toEqual([]);
      expect(h.all("ready")).toHaveLength(list.length);
      expect(names(h.registrations(fixture("pi-examples-0.73.1", "hello.ts")).tools)).toEqual(["hello"]);
    } finally {
      await h.stop();
    }
  });
});
