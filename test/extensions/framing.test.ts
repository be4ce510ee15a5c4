import { describe, expect, test } from "bun:test";
import { encodeFrames, LineSplitter, PartAssembler, WriteQueue } from "../../src/extensions/framing.ts";

const enc = new TextEncoder();

function splitter(max = 1 << 20) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const s = new LineSplitter({ maxLineBytes: max, onLine: (l) => lines.push(l), onOversize: (n) => oversize.push(n) });
  return { s, lines, oversize };
}

describe("LineSplitter", () => {
  test("ends frames only at LF, keeping U+2028 and U+2029 inside a frame", () => {
    const { s, lines } = splitter();
    const text = JSON.stringify({ a: "x\u2028y\u2029z", b: "\r" });
    expect(text).toContain("\u2028");
    s.push(enc.encode(`${text}\n{"c":1}\r\n`));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).a).toBe("x\u2028y\u2029z");
    expect(JSON.parse(lines[1]!)).toEqual({ c: 1 });
  });

  test("joins a partial line and a UTF-8 sequence split across chunks", () => {
    const { s, lines } = splitter();
    const bytes = enc.encode(`{"s":"héllo 🐷"}\n`);
    for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1));
    expect(lines).toEqual([`{"s":"héllo 🐷"}`]);
  });

  test("drops an oversized line up to its LF and goes on with the next", () => {
    const { s, lines, oversize } = splitter(10);
    s.push(enc.encode('{"a":"0123456789'));
    s.push(enc.encode('0123"}\n{"b":2}\n'));
    expect(oversize).toEqual([22]);
    expect(lines).toEqual(['{"b":2}']);
  });

  test("copies bytes that are kept, so a reused read buffer cannot change them", () => {
    const { s, lines } = splitter();
    const buf = enc.encode('{"a":');
    s.push(buf);
    buf.fill(0x20);
    s.push(enc.encode("1}\n"));
    expect(lines).toEqual(['{"a":1}']);
  });
});

describe("encodeFrames and PartAssembler", () => {
  test("a message within the limit is one line", () => {
    const frames = encodeFrames({ x: 1 }, 1024, () => 1);
    expect(frames).toHaveLength(1);
    expect(new TextDecoder().decode(frames[0])).toBe('{"x":1}\n');
  });

  test("a message over the limit becomes $/part frames within the limit that reassemble exactly", () => {
    const payload = { text: "ab🐷\u2028\"\\\n".repeat(3000) + "é".repeat(5000) };
    const max = 2048;
    const frames = encodeFrames(payload, max, () => "s1");
    expect(frames.length).toBeGreaterThan(10);
    const asm = new PartAssembler(1 << 24);
    let whole: string | undefined;
    for (const f of frames) {
      expect(f.length - 1).toBeLessThanOrEqual(max);
      expect(f.indexOf(0x0a)).toBe(f.length - 1);
      const frame = JSON.parse(new TextDecoder().decode(f));
      expect(frame.method).toBe("$/part");
      // No slice ends inside a surrogate pair, so other languages see valid strings.
      expect(frame.params.data).not.toMatch(/[\ud800-\udbff]$/);
      whole = asm.add(frame.params.stream, frame.params.data, frame.params.final) ?? whole;
    }
    expect(JSON.parse(whole!)).toEqual(payload);
    expect(asm.openStreams).toBe(0);
  });

  test("a stream growing past the reassembly limit is refused", () => {
    const asm = new PartAssembler(10);
    asm.add(1, "12345", false);
    expect(() => asm.add(1, "678901", false)).toThrow(/exceeds/);
  });
});

test("WriteQueue keeps what the transport did not take until drain", () => {
  const written: number[] = [];
  let room = 3;
  const q = new WriteQueue((b) => {
    const n = Math.min(room, b.length);
    written.push(...b.subarray(0, n));
    room -= n;
    return n;
  });
  q.push(new Uint8Array([1, 2, 3, 4, 5]));
  q.push(new Uint8Array([6]));
  expect(written).toEqual([1, 2, 3]);
  expect(q.pendingBytes).toBe(3);
  room = 10;
  q.drain();
  expect(written).toEqual([1, 2, 3, 4, 5, 6]);
});

describe("scanFrameHead", () => {
  test("reads the top-level id and method only", async () => {
    const { scanFrameHead } = await import("../../src/extensions/framing.ts");
    expect(scanFrameHead('{"jsonrpc":"2.0","id":12,"result":{"id":3')).toEqual({ id: 12, method: false });
    expect(scanFrameHead('{"jsonrpc":"2.0","result":{"id":3,"method":"x"')).toEqual({ method: false });
    expect(scanFrameHead('{"id":"a\\"b","method":"m"')).toEqual({ method: true });
    expect(scanFrameHead('{ "method" : "m", "id" : "r1", "params":{')).toEqual({ id: "r1", method: true });
    expect(scanFrameHead('{"jsonrpc":"2.0","id":4')).toEqual({ method: false });
  });

  test("the splitter hands over the start of an oversized line", () => {
    const heads: string[] = [];
    const s = new LineSplitter({ maxLineBytes: 10, onLine: () => {}, onOversize: (_n, head) => heads.push(head) });
    s.push(new TextEncoder().encode('{"id":5,'));
    s.push(new TextEncoder().encode('"result":"' + "y".repeat(400) + '"}\n'));
    expect(heads[0]!.startsWith('{"id":5,"result":"yyy')).toBe(true);
    expect(heads[0]!.length).toBe(256);
  });
});
