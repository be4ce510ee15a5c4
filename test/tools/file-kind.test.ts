import { describe, expect, test } from "bun:test";
import { KIND_SNIFF_BYTES, nonTextKind, notTextNote, notTextReason } from "../../src/tools/file-kind.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

describe("whether a file is text", () => {
  test("UTF-8 without NULs is text, an empty file too, and a character cut off by the sample's end", () => {
    expect(nonTextKind(Buffer.from("const a = 1; // héllo ✓\n"))).toBeUndefined();
    expect(nonTextKind(Buffer.alloc(0))).toBeUndefined();
    const cut = Buffer.from(`${"a".repeat(KIND_SNIFF_BYTES - 1)}é`);
    expect(nonTextKind(cut)).toBeUndefined();
  });

  test("known formats are named by their first bytes", () => {
    expect(nonTextKind(bytes([0x7f], "ELF", [2, 1, 1, 0]))).toEqual({ binary: true, format: "ELF executable" });
    expect(nonTextKind(bytes("%PDF-1.4\n"))).toEqual({ binary: true, format: "PDF document" });
    expect(nonTextKind(bytes("PK", [3, 4, 20, 0]))).toEqual({ binary: true, format: "zip archive" });
    expect(nonTextKind(bytes([0x1f, 0x8b, 8, 0]))).toEqual({ binary: true, format: "gzip archive" });
    expect(nonTextKind(bytes("SQLite format 3", [0], "more"))).toEqual({ binary: true, format: "SQLite database" });
  });

  test("a short signature a text file may start with names only bytes that are not text", () => {
    expect(nonTextKind(bytes("BM is the ticker\n"))).toBeUndefined();
    expect(nonTextKind(bytes("BM", [0, 0, 0x36, 0xff]))).toEqual({ binary: true, format: "BMP image" });
  });

  test("NULs or bytes that are not UTF-8 make binary data; mostly printable bytes a legacy encoding", () => {
    expect(nonTextKind(bytes("abc", [0], "def"))).toEqual({ binary: true });
    expect(nonTextKind(bytes([1, 2, 3, 0xff, 0xfe, 4, 5, 6, 7, 8]))).toEqual({ binary: true });
    expect(nonTextKind(bytes("caf", [0xe9], " au lait, cr", [0xe8], "me br", [0xfb], "l", [0xe9], "e\n"))).toEqual({ binary: false });
  });

  test("the words for a refused attachment and for read's result", () => {
    expect(notTextReason({ binary: true, format: "ELF executable" }, 2048)).toBe("a text file (ELF executable, 2.0KB)");
    expect(notTextReason({ binary: true }, 10)).toBe("a text file (binary, 10B)");
    expect(notTextReason({ binary: false }, 10)).toBe("UTF-8 text (10B, in Latin-1 or another encoding)");
    expect(notTextNote("a.out", { binary: true, format: "ELF executable" }, 2048)).toBe(
      "[Binary file (ELF executable, 2.0KB): not shown, as its bytes are not text. Inspect it with bash if needed (file, strings, xxd | head).]",
    );
    expect(notTextNote("old.txt", { binary: false }, 10)).toContain("iconv -f latin1 -t utf-8 old.txt");
  });
});
