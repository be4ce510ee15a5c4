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
