import { describe, expect, test } from "bun:test";
import { formatSize, truncateHead, truncateLine, truncateTail } from "../../src/tools/truncate.ts";

describe("formatSize", () => {
  test("prints bytes, KB and MB with one decimal", () => {
    expect(formatSize(1023)).toBe("1023B");
    expect(formatSize(51200)).toBe("50.0KB");
    expect(formatSize(1536)).toBe("1.5KB");
    expect(formatSize(3 * 1024 * 1024)).toBe("3.0MB");
  });
});

describe("truncateHead", () => {
  test("leaves content within the limits alone and reports its totals (a final line break starts no line, as in Pi 0.87)", () => {
    const r = truncateHead("a\nb\n");
    expect(truncateHead("").totalLines).toBe(0);
    expect(truncateHead("a\nb").totalLines).toBe(2);
    expect(r).toEqual({
      content: "a\nb\n",
      truncated: false,
      truncatedBy: null,
      totalLines: 2,
      totalBytes: 4,
      outputLines: 2,
      outputBytes: 4,
      lastLinePartial: false,
      firstLineExceedsLimit: false,
      maxLines: 2000,
      maxBytes: 51200,
    });
    expect(Object.keys(r)).toEqual([
      "content",
      "truncated",
      "truncatedBy",
      "totalLines",
      "totalBytes",
      "outputLines",
      "outputBytes",
      "lastLinePartial",
      "firstLineExceedsLimit",
      "maxLines",
      "maxBytes",
    ]);
  });

  test("keeps the first lines when there are too many", () => {
    const r = truncateHead("1\n2\n3\n4", { maxLines: 2 });
    expect(r.content).toBe("1\n2");
    expect(r.truncatedBy).toBe("lines");
    expect(r.outputLines).toBe(2);
  });

  test("keeps whole lines that fit the byte limit", () => {
    const r = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    expect(r.content).toBe("aaaa\nbbbb");
    expect(r.truncatedBy).toBe("bytes");
    expect(r.outputBytes).toBe(9);
  });

  test("returns nothing when the first line alone is over the byte limit", () => {
    const r = truncateHead("x".repeat(20) + "\nshort", { maxBytes: 10 });
    expect(r.content).toBe("");
    expect(r.firstLineExceedsLimit).toBe(true);
    expect(r.truncatedBy).toBe("bytes");
  });

  test("counts UTF-8 bytes, not characters", () => {
    const r = truncateHead("ééé\nb", { maxBytes: 6 });
    expect(r.content).toBe("ééé");
    expect(r.totalBytes).toBe(8);
  });
});

describe("truncateTail", () => {
  test("keeps the last lines", () => {
    const lines = Array.from({ length: 3000 }, (_, i) => String(i + 1)).join("\n") + "\n";
    const r = truncateTail(lines);
    expect(r.totalLines).toBe(3000);
    expect(r.outputLines).toBe(2000);
    expect(r.content.startsWith("1001\n")).toBe(true);
    expect(r.content.endsWith("\n3000")).toBe(true);
    expect(r.truncatedBy).toBe("lines");
  });

  test("keeps the end of a last line that alone is too big, on a character boundary", () => {
    const r = truncateTail("first\n" + "é".repeat(10), { maxBytes: 5 });
    expect(r.lastLinePartial).toBe(true);
    expect(r.content).toBe("éé");
    expect(r.outputLines).toBe(1);
  });

  test("drops a big line that comes before lines that fit", () => {
    const r = truncateTail("x".repeat(100) + "\nend\n", { maxBytes: 50 });
    expect(r.content).toBe("end");
    expect(r.outputLines).toBe(1);
    expect(r.truncatedBy).toBe("bytes");
  });
});

describe("truncateLine", () => {
  test("cuts long lines at 500 characters with a marker", () => {
    expect(truncateLine("a".repeat(501))).toEqual({ text: `${"a".repeat(500)}... [truncated]`, wasTruncated: true });
    expect(truncateLine("short")).toEqual({ text: "short", wasTruncated: false });
  });
});
