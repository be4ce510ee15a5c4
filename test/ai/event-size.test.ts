/** The size of the event-stream event being received, counted on raw bytes however they are cut. */
import { describe, expect, test } from "bun:test";
import { EventSizeMeter } from "../../src/ai/event-size.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** The largest event size seen, feeding `chunks` in order. */
function largest(chunks: string[]): number {
  const meter = new EventSizeMeter();
  return Math.max(0, ...chunks.map((chunk) => meter.add(bytes(chunk)).largest));
}

describe("EventSizeMeter", () => {
  test("a blank line ends an event, with LF, CRLF or CR line breaks", () => {
    for (const br of ["\n", "\r\n", "\r"]) {
      const meter = new EventSizeMeter();
      const event = `data: a${br}data: bc${br}${br}`;
      expect(meter.add(bytes(event))).toEqual({ largest: `data: a${br}data: bc${br}`.length, lastEventEnd: event.length });
      // The next event starts from nothing.
      expect(meter.add(bytes(`data: d${br}`))).toEqual({ largest: `data: d${br}`.length, lastEventEnd: -1 });
    }
  });

  test("all the lines of one event count together, comments included", () => {
    expect(largest([": ping\n", "data: 1\n", "data: 2\n"])).toBe(": ping\ndata: 1\ndata: 2\n".length);
  });

  test("a CRLF split between chunks is one line break, not a blank line", () => {
    const meter = new EventSizeMeter();
    meter.add(bytes("data: a\r"));
    expect(meter.add(bytes("\ndata: b\r\n"))).toEqual({ largest: "data: a\r\ndata: b\r\n".length, lastEventEnd: -1 });
    expect(meter.add(bytes("\r\n"))).toEqual({ largest: "data: a\r\ndata: b\r\n".length, lastEventEnd: 2 });
    expect(meter.add(bytes("x"))).toEqual({ largest: 1, lastEventEnd: -1 });
  });

  test("a line break in one chunk and the blank line in the next end the event", () => {
    const meter = new EventSizeMeter();
    expect(meter.add(bytes("data: a\n")).lastEventEnd).toBe(-1);
    expect(meter.add(bytes("\n")).lastEventEnd).toBe(1);
    expect(meter.add(bytes("data: b")).largest).toBe("data: b".length);
  });

  test("a CR blank line at the end of a chunk ends the event there; its LF in the next chunk is not counted", () => {
    const meter = new EventSizeMeter();
    expect(meter.add(bytes("data: a\r\n\r")).lastEventEnd).toBe(10);
    expect(meter.add(bytes("\ndata: b"))).toEqual({ largest: 7, lastEventEnd: -1 });
  });

  test("an event that ended inside a chunk is still reported as the largest", () => {
    const meter = new EventSizeMeter();
    expect(meter.add(bytes(`data: ${"x".repeat(100)}\n\ndata: y`))).toEqual({ largest: 107, lastEventEnd: 108 });
  });
});
