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
