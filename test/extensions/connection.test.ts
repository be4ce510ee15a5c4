import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { Connection, type ConnectionOptions, PartStreamStalled, RpcError } from "../../src/extensions/connection.ts";
import { ErrorCode } from "../../src/extensions/protocol.ts";

/** Two connections wired back to back, delivering asynchronously like a socket. */
function pair(a: Partial<ConnectionOptions> = {}, b: Partial<ConnectionOptions> = {}) {
  let left: Connection;
  let right: Connection;
  left = new Connection({ ...a, send: (bytes) => queueMicrotask(() => right.receive(bytes)) });
  right = new Connection({ ...b, send: (bytes) => queueMicrotask(() => left.receive(bytes)) });
  return { left, right };
}

/** A connection whose peer is the test itself, writing raw lines and reading raw frames. */
function raw(options: Partial<ConnectionOptions> = {}) {
  const out: unknown[] = [];
  const errors: string[] = [];
  const conn = new Connection({
    ...options,
    send: (bytes) => {
      for (const line of new TextDecoder().decode(bytes).split("\n")) if (line) out.push(JSON.parse(line));
    },
    onProtocolError: (m) => errors.push(m),
  });
  const feed = (text: string) => conn.receive(new TextEncoder().encode(text));
  return { conn, out, errors, feed };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("Connection", () => {
  test("correlates responses with requests by id, in either order", async () => {
    let fastDone!: () => void;
    const fastAnswered = new Promise<void>((r) => (fastDone = r));
    const { left } = pair({}, {
      onRequest: async (method, params) => {
        // The first request is answered only after the second: responses cross in reverse order.
        if (method === "slow") await fastAnswered;
        else queueMicrotask(fastDone);
        return { method, params };
      },
    });
    const [a, b] = await Promise.all([left.request("slow", { n: 1 }), left.request("fast", { n: 2 })]);
    expect(a).toEqual({ method: "slow", params: { n: 1 } });
    expect(b).toEqual({ method: "fast", params: { n: 2 } });
    expect(left.pendingCount).toBe(0);
  });

  test("answers ping itself even while a handler is busy", async () => {
    let release!: () => void;
    const { left } = pair({}, { onRequest: () => new Promise<void>((r) => (release = r)) });
    const busy = left.request("work");
    expect(await left.request("ping")).toEqual({});
    release();
    expect(await busy).toBeNull();
  });

  test("progress reaches the caller and cancel aborts the handler", async () => {
    const seen: unknown[] = [];
    let aborted!: () => void;
    const wasAborted = new Promise<void>((r) => (aborted = r));
    const { left } = pair({}, {
      onRequest: (_m, _p, ctx) => {
        ctx.progress({ step: 1 });
        ctx.signal.addEventListener("abort", () => aborted());
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const call = left.request("long", {}, { signal: controller.signal, onProgress: (v) => {
      seen.push(v);
      controller.abort();
    } });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.Cancelled });
    await wasAborted;
    expect(seen).toEqual([{ step: 1 }]);
  });

  test("a handler's RpcError and plain Error come back as error responses", async () => {
    const { left } = pair({}, {
      onRequest: (m) => {
        if (m === "a") throw new RpcError(ErrorCode.MethodNotFound, "no a");
        throw new Error("boom");
      },
    });
    await expect(left.request("a")).rejects.toMatchObject({ code: ErrorCode.MethodNotFound, message: "no a" });
    await expect(left.request("b")).rejects.toMatchObject({ code: ErrorCode.HandlerError, message: "boom" });
  });

  test("invalid frames get error responses and never stop the connection", async () => {
    const { out, errors, feed } = raw({
      incoming: { add: v.looseObject({ a: v.number() }) },
      onRequest: (_m, p) => (p as { a: number }).a + 1,
    });
    feed("not json\n[1,2]\n{\"id\":{},\"method\":\"x\"}\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"add\",\"params\":{\"a\":\"z\"}}\n");
    feed('{"jsonrpc":"2.0","id":8,"method":"add","params":{"a":1}}\n');
    await flush();
    expect(out).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "Parse error" } },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) },
      { jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: ErrorCode.InvalidParams }) },
      { jsonrpc: "2.0", id: 8, result: 2 },
    ]);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  test("a message over the frame limit crosses as $/part and arrives whole", async () => {
    const got: unknown[] = [];
    const { left } = pair({ maxFrameBytes: 1024 }, { maxFrameBytes: 1024, onNotification: (m, p) => got.push([m, p]) });
    const big = "x\u2028".repeat(5000);
    left.notify("big", { big });
    await flush();
    await flush();
    expect(got).toEqual([["big", { big }]]);
  });

  test("close fails every pending request with the given error", async () => {
    const { left } = pair({}, { onRequest: () => new Promise(() => {}) });
    const call = left.request("hang");
    left.close(new Error("extension x died"));
    await expect(call).rejects.toThrow("extension x died");
    await expect(left.request("after")).rejects.toThrow("extension x died");
  });
});

describe("an oversized frame from the peer", () => {
  const big = (n: number) => "x".repeat(n);

  test("a response over the limit fails the request it answers with -32003 naming size and limit; others stay open", async () => {
    const { conn, out, feed } = raw({ maxFrameBytes: 1024 });
    const first = conn.request("one");
    const second = conn.request("two");
    const ids = out.map((f) => (f as { id: number }).id);
    // A nested id in the result must not be taken for the frame's.
    feed(`{"jsonrpc":"2.0","id":${ids[0]},"result":{"id":${ids[1]},"text":"${big(4000)}"}}\n`);
    const err = (await first.catch((e) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect(err.code).toBe(ErrorCode.FrameTooLarge);
    expect(err.message).toContain("bytes exceeds the limit of 1024 bytes");
    expect(conn.pendingCount).toBe(1);
    feed(`{"jsonrpc":"2.0","id":${ids[1]},"result":"fine"}\n`);
    expect(await second).toBe("fine");
  });

  test("one whose id comes after the cut fails every open request", async () => {
    const { conn, feed } = raw({ maxFrameBytes: 1024 });
    const a = conn.request("a");
    const b = conn.request("b");
    feed(`{"jsonrpc":"2.0","result":{"text":"${big(4000)}"},"id":1}\n`);
    for (const p of [a, b]) expect(((await p.catch((e) => e)) as RpcError).code).toBe(ErrorCode.FrameTooLarge);
    expect(conn.pendingCount).toBe(0);
  });

  test("a request over the limit is answered -32003 under its own id", () => {
    const { out, feed } = raw({ maxFrameBytes: 1024 });
    feed(`{"jsonrpc":"2.0","id":"r7","method":"tool.execute","params":{"text":"${big(4000)}"}}\n`);
    expect(out).toEqual([{ jsonrpc: "2.0", id: "r7", error: { code: ErrorCode.FrameTooLarge, message: expect.stringContaining("exceeds the limit") } }]);
  });
});

describe("$/part streams", () => {
  test("at most 16 open at once: a 17th is refused with -32003, the open ones still complete", () => {
    const got: unknown[] = [];
    const { out, feed } = raw({ onNotification: (m, p) => got.push([m, p]) });
    const part = (stream: number, data: string, final: boolean) =>
      feed(`${JSON.stringify({ jsonrpc: "2.0", method: "$/part", params: { stream, data, final } })}\n`);
    for (let i = 1; i <= 16; i++) part(i, '{"jsonrpc":"2.0","method":"n","params":{"i":', false);
    expect(out).toEqual([]);
    part(17, '{"jsonrpc":"2.0","method":"n","params":{"i":', false);
    expect(out).toEqual([{ jsonrpc: "2.0", id: null, error: { code: ErrorCode.FrameTooLarge, message: expect.stringContaining("16 streams are open") } }]);
    part(3, "3}}", true);
    expect(got).toEqual([["n", { i: 3 }]]);
    // A slot is free again.
    part(18, '{"jsonrpc":"2.0","method":"n","params":{"i":18}}', true);
    part(19, '{"jsonrpc":"2.0","method":"n","params":{"i":', false);
    expect(out).toHaveLength(1);
  });

  const partLine = (stream: number, data: string, final: boolean) =>
    `${JSON.stringify({ jsonrpc: "2.0", method: "$/part", params: { stream, data, final } })}\n`;

  test("an answer that stops coming part-way fails its request after the limit; the others go on", async () => {
    const { conn, errors, feed } = raw({ partTimeoutMs: 200 });
    const stalled = conn.request("work").catch((e: unknown) => e);
    const other = conn.request("other");
    feed(partLine(7, '{"jsonrpc":"2.0","id":1,"result":{"text":"abc', false));
    const error = await stalled;
    expect(error).toBeInstanceOf(PartStreamStalled);
    expect((error as Error).message).toBe("work: its answer stopped coming, $/part stream 7 sent no part for 0.2s and was dropped");
    expect(errors).toEqual(["$/part stream 7 sent no part for 0.2s and was dropped"]);
    feed('{"jsonrpc":"2.0","id":2,"result":"fine"}\n');
    expect(await other).toBe("fine");
    // The rest of a dropped stream is no answer to anything.
    feed(partLine(7, 'def"}}', true));
    expect(conn.pendingCount).toBe(0);
  });

  test("a request of the peer's that stops coming part-way is answered with an error under its id", async () => {
    const handled: string[] = [];
    const { out, feed } = raw({ partTimeoutMs: 200, onRequest: (method) => void handled.push(method) });
    feed(partLine(3, '{"jsonrpc":"2.0","id":"r9","method":"tool.execute","params":{"args":"', false));
    const answer = await new Promise<unknown>((resolve) => {
      const poll = () => (out.length > 0 ? resolve(out[0]) : setTimeout(poll, 10));
      poll();
    });
    expect(answer).toEqual({ jsonrpc: "2.0", id: "r9", error: { code: ErrorCode.FrameTooLarge, message: "$/part stream 3 sent no part for 0.2s and was dropped" } });
    expect(handled).toEqual([]);
  });

  test("parts that keep coming are never cut, however long the whole stream takes", async () => {
    const { conn, feed } = raw({ partTimeoutMs: 500 });
    const answer = conn.request("work");
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: "x".repeat(200) });
    // Twenty parts 50 ms apart: a second in all, never 500 ms without a part.
    for (let i = 0; i < 20; i++) {
      feed(partLine(1, text.slice(i * 10, (i + 1) * 10), false));
      await Bun.sleep(50);
    }
    feed(partLine(1, text.slice(200), true));
    expect(await answer).toBe("x".repeat(200));
  });
});
