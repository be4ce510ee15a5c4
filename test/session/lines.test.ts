import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeUtf8, scanLines, withReadFd } from "../../src/session/lines.ts";

const dir = mkdtempSync(join(tmpdir(), "pig-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Every line's text, read back through scanLines; `during` runs inside the callback for line 1. */
function linesOf(path: string, during?: () => void): string[] {
  return withReadFd(path, (fd) => {
    const out: string[] = [];
    scanLines(fd, (line) => {
      if (line.lineNo === 1) during?.();
      out.push(decodeUtf8(line.buf, line.start, line.start + line.length));
    });
    return out;
  });
}

describe("scanLines reusing its buffer", () => {
  const a = file("a.jsonl", "alpha\nbeta\ngamma\n");
  const b = file("b.jsonl", "one\ntwo");

  test("each scan reads its own file, whatever was scanned before", () => {
    expect(linesOf(a)).toEqual(["alpha", "beta", "gamma"]);
    expect(linesOf(b)).toEqual(["one", "two"]);
    expect(linesOf(a)).toEqual(["alpha", "beta", "gamma"]);
  });

  test("a scan started inside another's callback leaves the outer scan's lines intact", () => {
    let inner: string[] = [];
    const outer = linesOf(a, () => {
      inner = linesOf(b);
    });
    expect(inner).toEqual(["one", "two"]);
    expect(outer).toEqual(["alpha", "beta", "gamma"]);
  });

  test("a scan stopped early, or ended by a throwing callback, does not spoil the next one", () => {
    withReadFd(a, (fd) => scanLines(fd, () => false));
    expect(() =>
      withReadFd(a, (fd) =>
        scanLines(fd, () => {
          throw new Error("stop");
        }),
      ),
    ).toThrow("stop");
    expect(linesOf(b)).toEqual(["one", "two"]);
  });

  test("a line longer than the buffer is read whole, and later scans read short lines right", () => {
    const long = "x".repeat(3 * 1024 * 1024);
    const big = file("big.jsonl", `head\n${long}\ntail\n`);
    expect(linesOf(big).map((l) => l.length)).toEqual([4, long.length, 4]);
    expect(linesOf(a)).toEqual(["alpha", "beta", "gamma"]);
  });
});

describe("scanLines with a line limit", () => {
  /** Each line as [text, or "oversized:<length>"], with its offset. */
  function scan(path: string, max: number) {
    return withReadFd(path, (fd) => {
      const out: { text: string; offset: number; terminated: boolean }[] = [];
      const result = scanLines(
        fd,
        (line) => {
          const text = line.oversized ? `oversized:${line.length}` : decodeUtf8(line.buf, line.start, line.start + line.length);
          out.push({ text, offset: line.offset, terminated: line.terminated });
        },
        0,
        max,
      );
      return { lines: out, ...result };
    });
  }

  test("a line at the limit or over it comes without its bytes; the lines around it are whole", () => {
    const path = file("long.jsonl", `short\n${"x".repeat(10)}\n${"y".repeat(9)}\nafter\n`);
    expect(scan(path, 10).lines).toEqual([
      { text: "short", offset: 0, terminated: true },
      { text: "oversized:10", offset: 6, terminated: true },
      { text: "y".repeat(9), offset: 17, terminated: true },
      { text: "after", offset: 27, terminated: true },
    ]);
  });

  test("a file with no newline at all is passed over in buffer-sized steps, never held whole", () => {
    // Longer than the scanner's first buffer, so the line spans several reads.
    const size = 3 * 1024 * 1024 + 5;
    const path = file("no-newline.jsonl", `{"type":"session"}\n${"z".repeat(size)}`);
    const { lines, size: read, endsWithNewline } = scan(path, 1024);
    expect(lines).toEqual([
      { text: '{"type":"session"}', offset: 0, terminated: true },
      { text: `oversized:${size}`, offset: 19, terminated: false },
    ]);
    expect(read).toBe(19 + size);
    expect(endsWithNewline).toBe(false);
  });

  test("an oversized line that ends in the middle of a read is followed by the next line", () => {
    const size = 2 * 1024 * 1024;
    const path = file("long-then-more.jsonl", `${"q".repeat(size)}\nnext\n`);
    expect(scan(path, 4096).lines).toEqual([
      { text: `oversized:${size}`, offset: 0, terminated: true },
      { text: "next", offset: size + 1, terminated: true },
    ]);
  });
});

describe("scanLines checking UTF-8 a read at a time", () => {
  // ~4 MiB: several reads of the 1 MiB buffer, a line longer than it, and lines of invalid
  // UTF-8 here and there (one cut sequence at a line's end, one stray continuation byte).
  const valid = (n: number) => Buffer.from(`{"n":${n},"text":"${"é→ok ".repeat(n % 7 === 0 ? 200 : 20)}"}`);
  const parts: Buffer[] = [];
  const invalidLines = new Set<number>();
  for (let n = 1; parts.reduce((sum, p) => sum + p.length, 0) < 4 * 1024 * 1024; n++) {
    if (n === 40) parts.push(Buffer.from(`{"long":"${"x".repeat(1536 * 1024)}"}`));
    else if (n === 600 || n === 601) {
      invalidLines.add(n);
      parts.push(Buffer.concat([Buffer.from('{"bad":"'), Buffer.from(n % 2 === 0 ? [0xe2, 0x86] : [0x80]), Buffer.from('"}')]));
    } else parts.push(valid(n));
    parts.push(Buffer.from("\n"));
  }
  const path = join(dir, "utf8.jsonl");
  writeFileSync(path, Buffer.concat(parts));

  test("a line marked utf8 is valid UTF-8; lines of reads without an invalid line are marked", () => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    const seen = { marked: 0, valid: 0, invalid: 0, wronglyMarked: 0 };
    withReadFd(path, (fd) =>
      scanLines(fd, (line) => {
        let ok = true;
        try {
          strict.decode(line.buf.subarray(line.start, line.start + line.length));
        } catch {
          ok = false;
        }
        seen[ok ? "valid" : "invalid"]++;
        if (line.utf8) seen.marked++;
        if (line.utf8 && !ok) seen.wronglyMarked++;
      }, 0, undefined, true),
    );
    expect(seen.invalid).toBe(invalidLines.size);
    expect(seen.invalid).toBeGreaterThan(1);
    expect(seen.wronglyMarked).toBe(0);
    // Each invalid line leaves its read's lines to be checked one by one; the other reads are marked.
    expect(seen.marked).toBeGreaterThan(seen.valid / 4);
  });

  test("a scan not asked to check marks nothing", () => {
    let marked = 0;
    withReadFd(path, (fd) => scanLines(fd, (line) => void (line.utf8 && marked++)));
    expect(marked).toBe(0);
  });

  test("a line over the limit, and the read that goes on after it, are not marked", () => {
    const lines: { lineNo: number; utf8?: true; oversized?: true }[] = [];
    withReadFd(path, (fd) => scanLines(fd, (line) => void lines.push({ lineNo: line.lineNo, ...(line.utf8 ? { utf8: true as const } : {}), ...(line.oversized ? { oversized: true as const } : {}) }), 0, 1024 * 1024, true));
    const long = lines.find((l) => l.oversized)!;
    expect(long.lineNo).toBe(40);
    expect(long.utf8).toBeUndefined();
    expect(lines.length).toBe(parts.length / 2);
  });
});
