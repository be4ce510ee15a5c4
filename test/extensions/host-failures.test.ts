import { afterEach, describe, expect, test } from "bun:test";
import { ctx, FAST_TIMING, fakeSource, noUpdate, startTestHost, type TestHost, toolNamed, waitFor } from "./helpers/host-fixture.ts";
import { processAlive } from "../helpers/process-state.ts";

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const signal = () => new AbortController().signal;

describe("interceptable events", () => {
  test("extensions chain in load order; one that misses its deadline counts as no answer", async () => {
    t = await startTestHost(
      [fakeSource("/ext/slow", "slow-events", ["input"], "s_"), fakeSource("/ext/upper", "transform", ["input"], "u_")],
      { timing: { eventDeadlineMs: 300 } },
    );
    const result = await t.host.hooks().input({ text: "hello", source: "interactive" });
    expect(result).toEqual({ action: "transform", text: "HELLO" });
    expect(t.errors).toEqual([{ extensionPath: "/ext/slow", event: "input", error: 'Extension "/ext/slow" did not answer input within 300 ms' }]);
  });

  test("tool_call: a block wins; an extension that cannot answer blocks too (fail closed)", async () => {
    t = await startTestHost([fakeSource("/ext/guard", "normal", ["tool_call"], "g_"), fakeSource("/ext/mute", "slow-events", ["tool_call"], "m_")], {
      timing: { eventDeadlineMs: 300 },
    });
    const hooks = t.host.hooks();
    expect(await hooks.toolCall({ toolCallId: "1", toolName: "bash", input: { command: "ls" } })).toEqual({ block: true, reason: "no bash here" });
    expect(t.errors).toEqual([]);
    expect(await hooks.toolCall({ toolCallId: "2", toolName: "read", input: { path: "x" } })).toEqual({
      block: true,
      reason: 'Extension "/ext/mute" did not answer tool_call within 300 ms',
    });
  });

  test("only subscribed extensions receive an event; observe-only events are notifications", async () => {
    t = await startTestHost([fakeSource("/ext/a", "normal", ["agent_start"], "a_"), fakeSource("/ext/b", "normal", [], "b_")]);
    t.host.notify("agent_start", {});
    t.host.notify("turn_start", { turnIndex: 0, timestamp: 1 });
    const traceOf = async (prefix: string) => {
      const r = await toolNamed(t!.host, `${prefix}trace`).execute("c", {}, signal(), noUpdate, ctx);
      return JSON.parse((r.content[0] as { text: string }).text).received as string[];
    };
    // Frames on one socket keep their order: the notification precedes the trace call.
    expect((await traceOf("a_")).filter((m) => m === "event")).toHaveLength(1);
    expect(await traceOf("b_")).not.toContain("event");
    expect(t.host.list().map((s) => s.events)).toEqual([["agent_start"], []]);
  });
});

describe("liveness", () => {
  test("a hung extension's call fails naming it, it is killed, and another extension keeps working", async () => {
    t = await startTestHost([fakeSource("/ext/hang", "hang-on-tool", [], "h_"), fakeSource("/ext/ok", "normal", [], "k_")]);
    const hungPid = t.host.list()[0]!.pid!;
    const hung = toolNamed(t.host, "h_hang").execute("c1", {}, signal(), noUpdate, ctx);
    const ok = await toolNamed(t.host, "k_echo").execute("c2", { text: "alive" }, signal(), noUpdate, ctx);
    expect(ok.content).toEqual([{ type: "text", text: "alive" }]);
    await expect(hung).rejects.toThrow('Extension "/ext/hang" is not responding');
    await waitFor(() => !processAlive(hungPid));
    // It ran before, so it comes back as a new generation.
    await waitFor(() => t!.host.list()[0]!.state === "running" && t!.host.list()[0]!.generation === 2);
    expect(t.host.list()[1]).toMatchObject({ state: "running", generation: 1 });
  });
});

describe("$/part streams", () => {
  test("an answer that stops coming part-way fails the call naming the extension, which keeps working", async () => {
    t = await startTestHost([fakeSource("/ext/p")]);
    const pid = t.host.list()[0]!.pid!;
    const half = toolNamed(t.host, "half").execute("c1", {}, signal(), noUpdate, ctx);
    await expect(half).rejects.toThrow('Extension "/ext/p" stopped sending an answer: tool.execute: its answer stopped coming, $/part stream 1 sent no part for 0.5s and was dropped');
    // Not a hang: the process answers pings, so it is neither killed nor restarted.
    expect((await toolNamed(t.host, "echo").execute("c2", { text: "still here" }, signal(), noUpdate, ctx)).content).toEqual([{ type: "text", text: "still here" }]);
    expect(t.host.list()[0]).toMatchObject({ state: "running", generation: 1, pid });
  });
});

describe("crashes", () => {
  test("a crash mid-tool fails the call, the process restarts and registers again, and repeated crashes disable it", async () => {
    const notices: string[] = [];
    t = await startTestHost([fakeSource("/ext/c")], {
      ui: { ...(await import("../../src/extensions/ui.ts")).HEADLESS_UI, notify: (m) => notices.push(m) },
    });
    const crashOnce = async (generation: number) => {
      await waitFor(() => t!.host.list()[0]!.state === "running" && t!.host.list()[0]!.generation === generation);
      await expect(toolNamed(t!.host, "crash").execute("c", {}, signal(), noUpdate, ctx)).rejects.toThrow('Extension "/ext/c" exited (code 3)');
    };
    await crashOnce(1);
    await waitFor(() => t!.host.list()[0]!.state === "running");
    // Registrations were replayed by the new process: its tools work.
    expect((await toolNamed(t.host, "echo").execute("e", { text: "back" }, signal(), noUpdate, ctx)).content[0]).toEqual({ type: "text", text: "back" });
    await crashOnce(2);
    await crashOnce(3);
    await waitFor(() => t!.host.list()[0]!.state === "disabled");
    await expect(toolNamed(t.host, "echo").execute("e", { text: "x" }, signal(), noUpdate, ctx)).rejects.toThrow(/disabled/);
    expect(notices).toEqual([expect.stringContaining('Extension "/ext/c" crashed too often and is disabled')]);
    expect(t.errors.filter((e) => e.event === "process").length).toBeGreaterThanOrEqual(3);
  });

  test("a call made while the crashed process waits to restart waits for it and is answered by the new process", async () => {
    t = await startTestHost([fakeSource("/ext/c")], { timing: { restartBackoffMs: [300] } });
    await waitFor(() => t!.host.list()[0]!.state === "running");
    await expect(toolNamed(t.host, "crash").execute("c", {}, signal(), noUpdate, ctx)).rejects.toThrow('Extension "/ext/c" exited (code 3)');
    // Straight after the crash, inside the backoff: the call does not fail with "is restarting".
    expect(t.host.list()[0]!.state).toBe("restarting");
    const result = await toolNamed(t.host, "echo").execute("e", { text: "after the restart" }, signal(), noUpdate, ctx);
    expect(result.content[0]).toEqual({ type: "text", text: "after the restart" });
    expect(t.host.list()[0]!.generation).toBe(2);
  });
});

describe("lazy replication", () => {
  test("nothing of the log crosses before subscribe; then a snapshot of exact lines and appends as they happen", async () => {
    t = await startTestHost([fakeSource("/ext/r")]);
    const first = '{"type":"message","id":"a1","text":"caf\u00e9 \u2028 \ud83d\udc37",  "spaced":true}';
    t.port.append(first, "a1");
    const trace = async () => {
      const r = await toolNamed(t!.host, "trace").execute("c", {}, signal(), noUpdate, ctx);
      return JSON.parse((r.content[0] as { text: string }).text) as {
        received: string[];
        session: { snapshot: { header: string; entries: string[]; leafId: string; sessionFile?: string } | null; appended: string[] };
      };
    };
    const before = await trace();
    expect(before.received.filter((m) => m.startsWith("session."))).toEqual([]);
    expect(t.port.logListenerCount).toBe(0);

    await t.host.commands().find((c) => c.name === "subscribe")!.run("");
    const second = '{"type":"custom","id":"b2","data":{"n":1}}';
    t.port.append(second, "b2");
    const after = await trace();
    expect(after.session.snapshot).toEqual({ header: t.port.log.header, entries: [first], leafId: "a1", sessionFile: "/tmp/s1.jsonl" });
    expect(after.session.appended).toEqual([second]);
    expect(after.received.filter((m) => m === "session.appended")).toHaveLength(1);

    // A session switch replaces the replica with the new session's lines.
    t.port.replace({ header: '{"type":"session","id":"s2"}', entries: ['{"id":"c3"}'], leafId: "c3", sessionFile: "/tmp/s2.jsonl" });
    const switched = (await trace()) as unknown as { session: { replaced: unknown[] } };
    expect(switched.session.replaced).toEqual([{ header: '{"type":"session","id":"s2"}', entries: ['{"id":"c3"}'], leafId: "c3", sessionFile: "/tmp/s2.jsonl" }]);
  });
});

describe("shutdown", () => {
  test("leaves no process behind, including what the extension started itself", async () => {
    t = await startTestHost([fakeSource("/ext/g", "grandchild", ["session_shutdown"])]);
    const pid = t.host.list()[0]!.pid!;
    const r = await toolNamed(t.host, "grandchild").execute("c", {}, signal(), noUpdate, ctx);
    const grandchild = Number((r.content[0] as { text: string }).text);
    expect(grandchild).toBeGreaterThan(0);
    expect(() => process.kill(grandchild, 0)).not.toThrow();
    await t.host.shutdown();
    expect(processAlive(pid)).toBe(false);
    await waitFor(() => !processAlive(grandchild));
    expect(t.host.list()[0]!.state).toBe("stopped");
  });
});

describe("tool_call guard while its process is down", () => {
  test("a restarting guard is waited for and answers; a disabled one blocks naming itself", async () => {
    t = await startTestHost([fakeSource("/ext/guard", "normal", ["tool_call"])], { timing: { ...FAST_TIMING, restartBackoffMs: [300] } });
    await waitFor(() => t!.host.list()[0]!.state === "running");
    const hooks = t.host.hooks();
    await expect(toolNamed(t.host, "crash").execute("c", {}, signal(), noUpdate, ctx)).rejects.toThrow("exited (code 3)");
    expect(t.host.list()[0]!.state).toBe("restarting");
    // Fails open without the fix: the guard is left out while it restarts.
    expect(await hooks.toolCall({ toolCallId: "1", toolName: "bash", input: { command: "rm -rf /" } })).toEqual({ block: true, reason: "no bash here" });
    expect(t.host.list()[0]!.generation).toBe(2);
    // Crash it until it is disabled (maxRestarts 2 within the window).
    for (const generation of [2, 3]) {
      await waitFor(() => t!.host.list()[0]!.state === "running" && t!.host.list()[0]!.generation === generation);
      await expect(toolNamed(t!.host, "crash").execute("c", {}, signal(), noUpdate, ctx)).rejects.toThrow("exited (code 3)");
    }
    await waitFor(() => t!.host.list()[0]!.state === "disabled");
    const verdict = await hooks.toolCall({ toolCallId: "2", toolName: "read", input: { path: "x" } });
    expect(verdict).toEqual({ block: true, reason: expect.stringContaining('Extension "/ext/guard" is disabled') });
  });
});

describe("abort ends a pending hook", () => {
  test("session.abort() during a hanging tool_call handler ends the run at once, blocks the call and sends $/cancel", async () => {
    t = await startTestHost([fakeSource("/ext/mute", "slow-events", ["tool_call"], "m_")]);
    const { makeSession, tool } = await import("../helpers/scripted-session.ts");
    let ran = false;
    const echo = tool("echo", async () => ((ran = true), "ran"));
    const { session } = makeSession([{ calls: [{ id: "c1", name: "echo", arguments: {} }] }, { text: "after" }], [echo], {
      more: { hooks: t.host.hooks() },
    });
    const received = async () => {
      const r = await toolNamed(t!.host, "m_trace").execute("tr", {}, signal(), noUpdate, ctx);
      return JSON.parse((r.content[0] as { text: string }).text).received as string[];
    };
    const run = session.prompt("go");
    // The handler got the event and never answers (its deadline is 600 s).
    for (;;) if ((await received()).includes("event")) break;
    await session.abort();
    await run;
    expect(ran).toBe(false);
    const result = session.messages.find((m) => m.role === "toolResult") as { content: { text: string }[]; isError: boolean } | undefined;
    expect(result?.isError).toBe(true);
    for (;;) if ((await received()).includes("$/cancel")) break;
  });
});
