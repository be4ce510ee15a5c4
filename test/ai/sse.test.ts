import { describe, expect, test } from "bun:test";
import { iterateSse, SseLimitError, SseParser, type SseEvent } from "../../src/ai/sse.ts";

/** A body that delivers `chunks` one by one (as separate reads). */
function body(chunks: (string | Uint8Array)[], opts: { failAfter?: boolean } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) {
        const chunk = chunks[i++]!;
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      } else if (opts.failAfter) {
        controller.error(new TypeError("connection lost"));
      } else {
        controller.close();
      }
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of iterateSse(stream)) out.push(event);
  return out;
}

const brief = (events: SseEvent[]) => events.map((e) => ({ event: e.event, data: e.data }));

describe("iterateSse", () => {
  test("named events with JSON data", async () => {
    const events = await collect(body(['event: message_start\ndata: {"a":1}\n\n', 'event: ping\ndata: {"type": "ping"}\n\n']));
    expect(brief(events)).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { event: "ping", data: '{"type": "ping"}' },
    ]);
  });

  test("multi-line data joins with \\n; one leading space is removed, further ones kept", async () => {
    const events = await collect(body(["data: first\ndata:second\ndata:  third\ndata\n\n"]));
    expect(brief(events)).toEqual([{ event: null, data: "first\nsecond\n third\n" }]);
  });

  test("comments are ignored but kept in raw; events without data or name are not dispatched", async () => {
    const events = await collect(body([": keep-alive\n\n", ":comment\nevent: x\ndata: 1\n\n", "id: 7\n\n"]));
    expect(brief(events)).toEqual([{ event: "x", data: "1" }]);
    expect(events[0]!.raw).toEqual([":comment", "event: x", "data: 1"]);
  });

  test("CRLF, CR and LF line ends, split anywhere across chunks (even between CR and LF)", async () => {
    const text = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n";
    const expected = [
      { event: "a", data: "1" },
      { event: "b", data: "2" },
      { event: "c", data: "3" },
    ];
    for (let size = 1; size <= text.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(brief(await collect(body(chunks)))).toEqual(expected);
    }
  });

  test("multi-byte UTF-8 split across reads", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"héllo 😀"}\n\n');
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(brief(await collect(body(chunks)))).toEqual([{ event: null, data: '{"t":"héllo 😀"}' }]);
  });

  test("an event without its final blank line is still delivered at the end", async () => {
    expect(brief(await collect(body(["event: a\ndata: 1\n\nevent: b\ndata: 2"])))).toEqual([
      { event: "a", data: "1" },
      { event: "b", data: "2" },
    ]);
    expect(brief(await collect(body(["data: x\r"])))).toEqual([{ event: null, data: "x" }]);
  });

  test("an event name alone is dispatched with empty data", async () => {
    expect(brief(await collect(body(["event: message_stop\n\n"])))).toEqual([{ event: "message_stop", data: "" }]);
  });

  test("id and retry fields", async () => {
    const events = await collect(body(["id: 42\nretry: 1500\nretry: soon\ndata: x\n\n"]));
    expect(events[0]).toMatchObject({ id: "42", retry: 1500, data: "x" });
  });

  test("a leading BOM is skipped", () => {
    const parser = new SseParser();
    expect(brief(parser.push("\uFEFFdata: x\n\n"))).toEqual([{ event: null, data: "x" }]);
  });

  test("a stream error propagates after the events before it", async () => {
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of iterateSse(body(["data: 1\n\n", "data: 2\n"], { failAfter: true }))) seen.push(event.data);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(["1"]);
    expect((caught as Error).message).toBe("connection lost");
  });

  test("stopping early cancels the body", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("data: tick\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    let n = 0;
    for await (const _ of iterateSse(stream)) if (++n === 3) break;
    expect(n).toBe(3);
    expect(cancelled).toBe(true);
  });
});

describe("the limit on one event", () => {
  test("an event of many short data lines fails at the limit of the whole event", () => {
    const parser = new SseParser(1000);
    expect(parser.push("data: small\n\n").map((e) => e.data)).toEqual(["small"]);
    const line = `data: ${"x".repeat(94)}\n`;
    let thrown: unknown;
    let lines = 0;
    try {
      for (; lines < 100; lines++) parser.push(line);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseLimitError);
    expect((thrown as Error).message).toContain("an event longer than");
    expect(lines).toBe(9);
  });

  test("comments without the blank line that ends an event count too, and so does an unfinished line", () => {
    expect(() => {
      const parser = new SseParser(1000);
      for (let i = 0; i < 100; i++) parser.push(`: ${"k".repeat(98)}\n`);
    }).toThrow(SseLimitError);
    expect(() => {
      const parser = new SseParser(1000);
      for (let i = 0; i < 100; i++) parser.push("y".repeat(100));
    }).toThrow(SseLimitError);
  });

  test("events under the limit pass, however many", () => {
    const parser = new SseParser(1000);
    let events = 0;
    for (let i = 0; i < 1000; i++) events += parser.push(`data: ${"z".repeat(90)}\ndata: 2\n\n`).length;
    expect(events).toBe(1000);
  });
});
