/**
 * The response watch under the provider clients: silence before the headers, after them and
 * mid-body fails with a fault that names the setting; error bodies are read in part; a 2xx HTML
 * page and an endless line fail early; what passes through arrives byte for byte.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { ERROR_BODY_LIMIT, MAX_EVENT_BYTES, MAX_LINE_BYTES, ProviderFault, ResponseWatch } from "../../src/ai/response-watch.ts";

const encoder = new TextEncoder();
const releases: (() => void)[] = [];

/** A body that sends `parts`, then stays silent until the server closes (or ends, with `end`). */
function body(parts: (string | Uint8Array)[], end = false): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < parts.length) {
        const part = parts[next++]!;
        controller.enqueue(typeof part === "string" ? encoder.encode(part) : part);
        return;
      }
      if (end) return controller.close();
      await new Promise<void>((resolve) => releases.push(resolve));
      controller.close();
    },
  });
}

/** A body that sends `piece` every `everyMs` until the client leaves (a server's keep-alives). */
function forever(piece: string, everyMs: number, first = ""): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first) controller.enqueue(encoder.encode(first));
      timer = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(piece));
        } catch {
          clearInterval(timer);
        }
      }, everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
}

/** `count` events, one every `everyMs`, then the end. */
function paced(count: number, everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === count) return controller.close();
      if (sent > 0) await Bun.sleep(everyMs);
      controller.enqueue(encoder.encode(`data: ${sent++}\n\n`));
    },
  });
}

/** `bytes` of event stream made of `unit` repeated, then the end. */
function repeated(unit: string, bytes: number): ReadableStream<Uint8Array> {
  const piece = encoder.encode(unit.repeat(Math.ceil((1 << 20) / unit.length)));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
}

const sseHeaders = { headers: { "content-type": "text/event-stream" } };

const routes: Record<string, () => Response | Promise<Response>> = {
  "/comments": () => new Response(forever(": keep-alive\n\n", 20, "data: one\n\n"), sseHeaders),
  "/drip": () => new Response(forever("x", 20, "data: one\n\ndata: "), sseHeaders),
  "/paced": () => new Response(paced(15, 100), sseHeaders),
  "/many-data-lines": () => new Response(repeated(`data: ${"x".repeat(1018)}\n`, MAX_EVENT_BYTES * 2), sseHeaders),
  "/many-events": () => new Response(repeated(`data: ${"x".repeat(1017)}\n\n`, MAX_EVENT_BYTES * 2), sseHeaders),
  "/hang": () => new Promise<Response>((resolve) => releases.push(() => resolve(new Response("late")))),
  "/stall": () => new Response(body(["data: one\n\n"]), { headers: { "content-type": "text/event-stream" } }),
  "/lines": () => new Response(body(["data: a", "bc\n\ndata: ", "de\r", "\nf"], true), { headers: { "content-type": "text/event-stream" } }),
  "/big-error": () => new Response("e".repeat(ERROR_BODY_LIMIT * 8), { status: 502, headers: { "content-type": "text/plain" } }),
  "/small-error": () => Response.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "3" } }),
  "/html": () => new Response("<html><head><title>Sign in</title></head><body>…</body></html>", { headers: { "content-type": "text/html; charset=utf-8" } }),
  "/endless": () => {
    const piece = new Uint8Array(1 << 20).fill(120);
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += piece.byteLength;
          if (sent > MAX_LINE_BYTES * 4) controller.close();
          else controller.enqueue(piece);
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  },
};

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  fetch: (request) => (routes[new URL(request.url).pathname] ?? (() => new Response("no route", { status: 404 })))(),
});

/** Sends the headers of an event stream and then nothing (Bun.serve sends headers with the first chunk). */
const headersOnly = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    data(socket) {
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
      socket.flush();
    },
  },
});

afterAll(() => {
  for (const release of releases.splice(0)) release();
  headersOnly.stop(true);
  void server.stop(true);
});

const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

async function readAll(response: Response): Promise<string> {
  return new Response(response.body).text();
}

describe("silence", () => {
  test("no headers within the idle time: the fetch fails with the fault", async () => {
    const watch = new ResponseWatch(200);
    const error = await watch.fetch(url("/hang")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFault);
    expect((error as Error).message).toBe("Stream idle timeout: no response from the server within 0.2s (retry.provider.idleTimeoutMs)");
    expect(watch.failure).toBe(error as ProviderFault);
  });

  test("headers, then no body byte: reading fails with the fault", async () => {
    const watch = new ResponseWatch(200);
    const response = await watch.fetch(`http://127.0.0.1:${headersOnly.port}/`);
    expect(response.status).toBe(200);
    const error = await readAll(response).catch((e: unknown) => e);
    expect((error as Error).message).toBe("Stream idle timeout: the server sent nothing for 0.2s after its headers (retry.provider.idleTimeoutMs)");
  });

  test("a stall mid-body: the bytes so far arrive, then the fault", async () => {
    const watch = new ResponseWatch(200);
    const response = await watch.fetch(url("/stall"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    watch.progress();
    const error = await reader.read().catch((e: unknown) => e);
    expect((error as Error).message).toBe("Stream idle timeout: the server sent nothing for 0.2s after 11 bytes (retry.provider.idleTimeoutMs)");
  });

  test("keep-alive comments forever are no progress: the fault comes all the same", async () => {
    const watch = new ResponseWatch(300);
    const response = await watch.fetch(url("/comments"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    watch.progress();
    let comments = 0;
    const error = await (async () => {
      for (;;) {
        const { value } = await reader.read();
        if (new TextDecoder().decode(value).startsWith(": keep-alive")) comments++;
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFault);
    expect((error as Error).message).toMatch(
      /^Stream idle timeout: the server sent no event with content for 0\.3s, only \d+ bytes of keep-alives or of an unfinished event, after \d+ bytes \(retry\.provider\.idleTimeoutMs\)$/,
    );
    expect(comments).toBeGreaterThan(0);
  });

  test("a byte at a time that never completes an event is no progress either", async () => {
    const watch = new ResponseWatch(300);
    const response = await watch.fetch(url("/drip"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    watch.progress();
    const error = await reader.read().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Stream idle timeout: the server sent no event with content for 0\.3s, only \d+ bytes/);
  });

  test("each progress starts the idle time again: a slow stream that keeps moving is never cut", async () => {
    // Fifteen events 100 ms apart take longer than the 1 s limit, but never 1 s without one.
    const watch = new ResponseWatch(1000);
    const response = await watch.fetch(url("/paced"));
    const reader = response.body!.getReader();
    const seen: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen.push(new TextDecoder().decode(value));
      watch.progress();
    }
    expect(seen.join("")).toBe(Array.from({ length: 15 }, (_, n) => `data: ${n}\n\n`).join(""));
    expect(watch.failure).toBeUndefined();
  });

  test("no idle time set: a pause is waited out; the caller's abort still stops it", async () => {
    const watch = new ResponseWatch(0);
    const controller = new AbortController();
    const response = await watch.fetch(url("/stall"), { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const pending = reader.read().catch((e: unknown) => e);
    controller.abort();
    const error = (await pending) as Error;
    expect(error.name).toBe("AbortError");
    expect(watch.failure).toBeUndefined();
  });
});

describe("bodies", () => {
  test("what passes through is the server's bytes, whole events at a time", async () => {
    const response = await new ResponseWatch(5000).fetch(url("/lines"));
    const reader = response.body!.getReader();
    const chunks: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(new TextDecoder().decode(value));
    }
    expect(chunks.join("")).toBe("data: abc\n\ndata: de\r\nf");
    // An unfinished event waits for the blank line that ends it (however the network cut the
    // bytes); the last one comes out when the body ends.
    expect(chunks.slice(0, -1).filter((c) => !/(\r\n|\n|\r)(\r\n|\n|\r)$/.test(c))).toEqual([]);
    expect(chunks.at(-1)).toEndWith("f");
  });

  test("an error body is read only up to the limit; status and headers stay", async () => {
    const response = await new ResponseWatch(5000).fetch(url("/big-error"));
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).toStartWith("e".repeat(ERROR_BODY_LIMIT));
    expect(text).toEndWith(`… [the rest of the body was not read: over ${ERROR_BODY_LIMIT / 1024} KiB]`);
    const small = await new ResponseWatch(5000).fetch(url("/small-error"));
    expect(small.status).toBe(429);
    expect(small.headers.get("retry-after")).toBe("3");
    expect(await small.json()).toEqual({ error: { message: "slow down" } });
  });

  test("a successful answer that is an HTML page fails at once, naming its title", async () => {
    const watch = new ResponseWatch(5000);
    const error = await watch.fetch(url("/html")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFault);
    expect((error as Error).message).toBe("The server answered 200 with an HTML page instead of an event stream: Sign in");
  });

  test("a line without an end fails at the limit instead of growing", async () => {
    const watch = new ResponseWatch(5000);
    const response = await watch.fetch(url("/endless"));
    const error = await readAll(response).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Malformed event stream from the provider: a line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB without a line break`);
    expect(watch.failure).toBe(error as ProviderFault);
  });

  test("one event of many short data lines fails at the limit of the whole event, naming the provider", async () => {
    const watch = new ResponseWatch(5000, "acme");
    const response = await watch.fetch(url("/many-data-lines"));
    let received = 0;
    const error = await (async () => {
      for await (const chunk of response.body!) received += chunk.byteLength;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFault);
    expect((error as Error).message).toBe(
      `Malformed event stream from acme: an event longer than ${MAX_EVENT_BYTES / (1024 * 1024)} MiB (its lines up to the blank line that ends it)`,
    );
    expect(received).toBeLessThanOrEqual(MAX_EVENT_BYTES);
  });

  test("as many bytes in events of their normal size pass whole", async () => {
    const response = await new ResponseWatch(5000).fetch(url("/many-events"));
    let received = 0;
    for await (const chunk of response.body!) received += chunk.byteLength;
    expect(received).toBeGreaterThanOrEqual(MAX_EVENT_BYTES * 2);
  });
});
