import { afterEach, describe, expect, test } from "bun:test";
import { fakeSource, noUpdate, startTestHost, type TestHost, toolNamed, ctx } from "./helpers/host-fixture.ts";

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("handshake and registration", () => {
  test("a good token registers the extension's tools and commands, then it runs", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    expect(t.host.loadErrors).toEqual([]);
    expect(t.host.tools().map((x) => x.name)).toContain("echo");
    expect(t.host.commands().map((c) => c.name)).toEqual(["subscribe"]);
    const [status] = t.host.list();
    expect(status).toMatchObject({ id: "/ext/a", state: "running", generation: 1 });
    expect(status!.pid).toBeGreaterThan(0);
  });

  test("a wrong token is refused with -32001 and the extension fails to load", async () => {
    t = await startTestHost([fakeSource("/ext/bad", "badtoken")]);
    expect(t.host.loadErrors).toEqual([`Failed to load extension "/ext/bad": exited (code 41)`]);
    expect(t.host.list()[0]!.state).toBe("failed");
    expect(t.host.tools()).toEqual([]);
  });

  test("an unsupported protocol version is refused with -32002", async () => {
    t = await startTestHost([fakeSource("/ext/old", "badproto")]);
    expect(t.host.loadErrors).toEqual([`Failed to load extension "/ext/old": exited (code 42)`]);
  });

  test("a command that does not exist is a load error, not a crash", async () => {
    const src = { ...fakeSource("/ext/missing"), command: ["/nonexistent/pig-ext-binary"] };
    t = await startTestHost([src, fakeSource("/ext/ok", "normal", [], "ok_")]);
    expect(t.host.loadErrors).toHaveLength(1);
    expect(t.host.loadErrors[0]).toStartWith('Failed to load extension "/ext/missing": ');
    expect((await toolNamed(t.host, "ok_echo").execute("c", { text: "still here" }, new AbortController().signal, noUpdate, ctx)).content).toEqual([
      { type: "text", text: "still here" },
    ]);
  });
});

describe("tools", () => {
  test("a tool call returns the extension's content", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    const r = await toolNamed(t.host, "echo").execute("call-1", { text: "hi \u2028 there" }, new AbortController().signal, noUpdate, ctx);
    expect(r.content).toEqual([{ type: "text", text: "hi \u2028 there" }]);
    const [status] = t.host.list();
    expect(status!.calls).toBe(1);
    expect(status!.medianLatencyMs).toBeGreaterThan(0);
  });

  test("progress reaches onUpdate and abort sends $/cancel", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    const controller = new AbortController();
    const updates: unknown[] = [];
    const run = toolNamed(t.host, "slow").execute("call-2", {}, controller.signal, (u) => {
      updates.push(u);
      controller.abort();
    }, ctx);
    await expect(run).rejects.toThrow(/cancelled/);
    expect(updates).toEqual([{ content: [{ type: "text", text: "working" }], details: undefined }]);
    // The extension saw the cancel (its trace lists $/cancel after tool.execute).
    const trace = await toolNamed(t.host, "trace").execute("call-3", {}, new AbortController().signal, noUpdate, ctx);
    const received = JSON.parse((trace.content[0] as { text: string }).text).received as string[];
    expect(received).toContain("$/cancel");
  });

  test("a flood of progress and a result far over the frame limit arrive intact", async () => {
    t = await startTestHost([fakeSource("/ext/a")], { maxFrameBytes: 64 * 1024 });
    let updates = 0;
    const r = await toolNamed(t.host, "flood").execute("call-4", {}, new AbortController().signal, () => updates++, ctx);
    expect(updates).toBe(2000);
    expect((r.content[0] as { text: string }).text).toBe("x".repeat(3 * 64 * 1024));
  });
});

describe("calls from the extension", () => {
  const call = async (t: TestHost, method: string, params: unknown) => {
    const r = await toolNamed(t.host, "call").execute("c", { method, params }, new AbortController().signal, noUpdate, ctx);
    return JSON.parse((r.content[0] as { text: string }).text);
  };

  test("actions reach the session port; command-only calls, unknown methods and bad params are refused", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    expect(await call(t, "session.appendEntry", { customType: "note", data: { n: 1 } })).toEqual({});
    expect(t.port.calls).toEqual([["appendEntry", ["note", { n: 1 }]]]);
    expect(await call(t, "session.new", {})).toMatchObject({ code: -32000, message: "newSession is only available in command handlers" });
    expect(await call(t, "no.such", {})).toMatchObject({ code: -32601 });
    expect(await call(t, "session.setName", { name: 3 })).toMatchObject({ code: -32602, message: expect.stringContaining("name") });
    expect(await call(t, "context.usage", {})).toBeNull();
    // Upstream 0.87.1's levels include max; a level outside them is refused naming the field.
    expect(await call(t, "thinking.set", { level: "max" })).toEqual({});
    expect(t.port.calls.at(-1)).toEqual(["setThinkingLevel", ["max"]]);
    expect(await call(t, "thinking.set", { level: "extreme" })).toMatchObject({ code: -32602, message: expect.stringContaining("level") });
    expect(await call(t, "ui.confirm", { title: "t", message: "m" })).toEqual({ confirmed: false });
  });

  test("the state notification follows ready and carries no log", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    const r = await toolNamed(t.host, "trace").execute("c", {}, new AbortController().signal, noUpdate, ctx);
    const received = JSON.parse((r.content[0] as { text: string }).text).received as string[];
    expect(received).toContain("state");
    expect(received.filter((m) => m.startsWith("session."))).toEqual([]);
  });
});
