/** The size of the event-stream event being received, counted on raw bytes however they are cut. */
import { describe, expect, test } from "bun:test";
import { EventSizeMeter } from "../../src/ai/event-size.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** The largest event size seen, feeding `chunks` in order. */
function largest(chunks: string[]): number {
  const meter = new EventSizeMeter();
  return Math.max(0, ...chunks.map((chunk) => meter.add(bytes(chunk))));
}

describe("EventSizeMeter", () => {
  test("a blank line ends an event, with LF, CRLF or CR line breaks", () => {
    for (const br of ["\n", "\r\n", "\r"]) {
      const meter = new EventSizeMeter();
      expect(meter.add(bytes(`data: a${br}data: bc${br}${br}`))).toBe(`data: a${br}data: bc${br}`.length);
      // The next event starts from nothing.
      expect(meter.add(bytes(`data: d${br}`))).toBe(`data: d${br}`.length);
    }
  });

  test("all the lines of one event count together, comments included", () => {
    expect(largest([": ping\n", "data: 1\n", "data: 2\n"])).toBe(": ping\ndata: 1\ndata: 2\n".length);
  });

  test("a CRLF split between chunks is one line break, not a blank line", () => {
    const meter = new EventSizeMeter();
    meter.add(bytes("data: a\r"));
    expect(meter.add(bytes("\ndata: b\r\n"))).toBeGreaterThanOrEqual("data: a\rdata: b\r".length);
    expect(meter.add(bytes("\r\n"))).toBeGreaterThan(0);
    expect(meter.add(bytes("x"))).toBe(1);
  });

  test("a line break in one chunk and the blank line in the next end the event", () => {
    const meter = new EventSizeMeter();
    meter.add(bytes("data: a\n"));
    meter.add(bytes("\n"));
    expect(meter.add(bytes("data: b"))).toBe("data: b".length);
  });

  test("an event that ended inside a chunk is still reported as the largest", () => {
    const meter = new EventSizeMeter();
    expect(meter.add(bytes(`data: ${"x".repeat(100)}\n\ndata: y`))).toBe(107);
  });
});
