import { afterEach, describe, expect, test } from "bun:test";
import { fixture, RunnerHarness } from "./harness.ts";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const KINDS = fixture("ts", "kinds.ts");

async function start(load: string[], options: Partial<ConstructorParameters<typeof RunnerHarness>[0]> = {}): Promise<RunnerHarness> {
  harness = new RunnerHarness({ load, ...options });
  await harness.start();
  await harness.ready();
  return harness;
}

describe("extension runner behaviour", () => {
  test("tool execute reports progress and returns its result; a throw is an error result", async () => {
    const h = await start([KINDS]);
    const progress: unknown[] = [];
    const result = await h.request("tool.execute", { extension: KINDS, name: "slow_echo", toolCallId: "t1", args: { text: "hi", mode: "quick" } }, { onProgress: (v) => progress.push(v) });
    expect(result).toEqual({ content: [{ type: "text", text: "hi" }], details: { echoed: true } });
    expect(progress).toEqual([{ content: [{ type: "text", text: "working on hi" }], details: { step: 1 } }]);
    const failed = await h.request("tool.execute", { extension: KINDS, name: "slow_echo", toolCallId: "t2", args: { text: "x", mode: "fail" } });
    expect(failed).toEqual({ content: [{ type: "text", text: "failed on x" }], details: {}, isError: true });
  });

  test("$/cancel aborts the tool's signal", async () => {
    const h = await start([KINDS]);
    const controller = new AbortController();
    let progressed!: () => void;
    const started = new Promise<void>((resolve) => (progressed = resolve));
    const pending = h.request("tool.execute", { extension: KINDS, name: "slow_echo", toolCallId: "t3", args: { text: "z", mode: "hang" } }, {
      signal: controller.signal,
      onProgress: () => progressed(),
    });
    await started;
    controller.abort();
    await expect(pending).rejects.toThrow("cancelled");
    // The runner keeps serving after a cancellation.
    const next = await h.request("tool.execute", { extension: KINDS, name: "slow_echo", toolCallId: "t4", args: { text: "again", mode: "quick" } });
    expect((next as { content: unknown[] }).content).toEqual([{ type: "text", text: "again" }]);
  });

  test("the events whose upstream object carries an AbortSignal get one, the others not", async () => {
    const SIGNALS = fixture("ts", "signal-events.ts");
    const h = await start([SIGNALS]);
    const event = (name: string) => h.request("event", { extension: SIGNALS, event: name, payload: {} });
    expect(await event("session_before_compact")).toEqual({ sawSignal: true });
    expect(await event("session_before_tree")).toEqual({ sawSignal: true });
    expect(await event("session_before_switch")).toEqual({ sawSignal: false });
  });

  test("event handlers chain within the extension and return upstream's results", async () => {
    const h = await start([KINDS]);
    const event = (name: string, payload: unknown) => h.request("event", { extension: KINDS, event: name, payload });
    expect(await event("tool_call", { toolCallId: "a", toolName: "bash", input: { command: "rm -rf /" } })).toEqual({ block: true, reason: "no rm -rf" });
    expect(await event("tool_call", { toolCallId: "b", toolName: "read", input: { path: "a.txt" } })).toEqual({ input: { path: "rewritten.txt" } });
    expect(await event("tool_call", { toolCallId: "c", toolName: "ls", input: {} })).toBeNull();
    expect(await event("tool_result", { toolCallId: "d", toolName: "ls", input: {}, content: [], details: {}, isError: false })).toEqual({
      details: { first: true },
      content: [{ type: "text", text: 'seen {"first":true}' }],
    });
    expect(await event("input", { text: "?why", source: "interactive" })).toEqual({ action: "transform", text: "question: why" });
    expect(await event("input", { text: "plain", source: "interactive" })).toBeNull();
    expect(await event("context", { messages: [] })).toBeNull();
  });

  test("observe-only events arrive as notifications; handlers read the state mirror and act", async () => {
    const h = await start([KINDS], { flags: { loud: true }, mode: "rpc" });
    h.notify("state", { cwd: "/tmp", sessionId: "s1", thinkingLevel: "high", activeTools: ["read", "slow_echo"], allTools: [], commands: [], isIdle: true, hasPendingMessages: false, systemPrompt: "" });
    h.notify("event", { extension: KINDS, event: "session_start", payload: { reason: "startup" } });
    const entry = await h.waitFor(() => h.find("session.appendEntry"), "appendEntry");
    expect(entry.params).toEqual({ customType: "started", data: { flag: true, tools: ["read", "slow_echo"], mode: "rpc" } });
  });

  test("commands run with a command context, dialogs and completions go to the host", async () => {
    const h = await start([KINDS], { answers: { "ui.input": () => ({ value: "Ada" }) } });
    await h.request("command.run", { extension: KINDS, name: "greet", args: "there" });
    expect(h.find("ui.notify")?.params).toEqual({ message: "hello there", type: "info" });
    expect(h.find("ui.input")?.params).toEqual({ title: "Your name?", placeholder: "name" });
    const sent = await h.waitFor(() => h.find("agent.sendMessage"), "sendMessage");
    expect(sent.params).toEqual({ message: { customType: "greeting", content: "hi Ada", display: true } });
    expect(await h.request("command.complete", { extension: KINDS, name: "greet", prefix: "a" })).toEqual({ items: [{ value: "alice" }] });
    await h.request("shortcut.run", { extension: KINDS, key: "ctrl+shift+g" });
    expect(h.find("ui.setStatus")?.params).toEqual({ key: "greet", text: "pressed" });
  });

  test("pi.events reach extensions in the process and go to the host; host bus messages come in", async () => {
    const neighbour = fixture("ts", "neighbour.ts");
    const h = await start([KINDS, neighbour]);
    h.notify("bus.message", { channel: "ping-channel", data: 7 });
    const pong = await h.waitFor(() => h.find("bus.emit", (p) => p.channel === "pong-channel"), "pong");
    expect(pong.params.data).toEqual({ got: 7 });
    h.notify("event", { extension: neighbour, event: "session_start", payload: { reason: "startup" } });
    const started = await h.waitFor(() => h.find("bus.emit", (p) => p.channel === "neighbour-started"), "bus.emit");
    expect(started.params.data).toEqual({ ok: true });
  });

  test("TUI-only calls give one notice per extension and never throw", async () => {
    const path = fixture("ts", "tui-only.ts");
    const h = await start([path]);
    await h.request("command.run", { extension: path, name: "fancy", args: "" });
    const notices = h.all("ui.notify").map((r) => r.params);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toEqual({ message: "tui-only.ts: ctx.ui.setFooter() needs Pi's full-screen TUI, which pig's line UI does not have; calls like it are ignored.", type: "warning" });
    expect(notices[1]).toEqual({ message: "custom gave undefined; theme ok" });
    expect(h.find("ui.setWidget")?.params).toEqual({ key: "plain", lines: ["line one"] });
    // Running it again adds no further TUI notice.
    await h.request("command.run", { extension: path, name: "fancy", args: "" });
    expect(h.all("ui.notify")).toHaveLength(3);
  });

  test("in RPC mode the TUI-only notice goes to stderr, not to the client", async () => {
    const path = fixture("ts", "tui-only.ts");
    const h = await start([path], { mode: "rpc" });
    await h.request("command.run", { extension: path, name: "fancy", args: "" });
    expect(h.all("ui.notify").map((r) => r.params)).toEqual([{ message: "custom gave undefined; theme ok" }]);
    await h.waitFor(() => h.stderr.includes("ctx.ui.setFooter() needs Pi's full-screen TUI"), "the stderr notice");
  });

  test("pi.exec runs without a shell with upstream's result shape, timeouts kill", async () => {
    const h = await start([KINDS]);
    await h.request("command.run", { extension: KINDS, name: "run", args: "" });
    expect(h.find("session.appendEntry", (p) => p.customType === "exec")?.params.data).toEqual({
      result: { stdout: "out\n", stderr: "err\n", code: 3, killed: false, truncated: false },
      missing: { code: 1, killed: false },
    });
    await h.request("command.run", { extension: KINDS, name: "run", args: "slow" });
    const slow = h.all("session.appendEntry").filter((r) => r.params.customType === "exec")[1]?.params.data as { result: { killed: boolean; code: number } };
    expect(slow.result.killed).toBe(true);
    // Ended by SIGTERM: 128 + 15, as a shell reports it.
    expect(slow.result.code).toBe(143);
  });

  test("providers register their JSON config; streamSimple is served through provider.stream", async () => {
    const h = await start([KINDS]);
    const [provider] = h.registrations(KINDS).providers as { name: string; config: Record<string, unknown> }[];
    expect(provider?.name).toBe("my-llm");
    expect(provider?.config).toMatchObject({ baseUrl: "http://localhost:1", apiKey: "MY_LLM_KEY", api: "my-api", hasStreamSimple: true });
    expect(provider?.config.streamSimple).toBeUndefined();
    const events: unknown[] = [];
    const result = await h.request("provider.stream", { extension: KINDS, provider: "my-llm", model: { id: "m1" }, context: { messages: [] } }, { onProgress: (e) => events.push(e) });
    expect(result).toEqual({ message: { role: "assistant", content: [{ type: "text", text: "streamed" }], stopReason: "stop" } });
    expect(events.map((e) => (e as { type: string }).type)).toEqual(["start", "done"]);
  });
});
