import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { randomHex, sha256Hex } from "../../src/util/light-crypto.ts";

describe("light-crypto", () => {
  test("randomHex gives twice as many hex digits as bytes, different each time", () => {
    const a = randomHex(8);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/);
    expect(randomHex(8)).not.toBe(a);
  });

  test("sha256Hex equals node:crypto's SHA-256, also for non-ASCII text", () => {
    for (const text of ["", "/home/u/proj", "/home/ü/プロジェクト/😀"]) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });
});
