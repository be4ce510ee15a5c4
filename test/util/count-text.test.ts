/** formatCount writes counts as toLocaleString("en-US") does, without ICU's number formatter. */
import { describe, expect, test } from "bun:test";
import { formatCount } from "../../src/util/count-text.ts";

describe("formatCount", () => {
  test("the same text as toLocaleString('en-US') for whole and fractional counts of every size", () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 123_456, 999_999, 1_000_000, 1_234_567, 12_345_678_901, Number.MAX_SAFE_INTEGER, 1e20, 2.5, 999.5, 1234.4, -1, -999, -1000, -1_234_567, -2.5];
    for (const n of values) expect({ n, text: formatCount(n) }).toEqual({ n, text: Math.round(n).toLocaleString("en-US") });
  });

  test("numbers String() writes with an exponent, and ones that are not finite, are left to the formatter", () => {
    for (const n of [1e21, 1.5e25, Infinity, -Infinity, NaN]) expect(formatCount(n)).toBe(Math.round(n).toLocaleString("en-US"));
  });

  test("a rounded negative zero is 0", () => {
    expect(formatCount(-0.4)).toBe("0");
  });
});
