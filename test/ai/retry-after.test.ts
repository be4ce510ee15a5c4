import { describe, expect, test } from "bun:test";
import { retryAfterMs } from "../../src/ai/retry-after.ts";

const headers = (init: Record<string, string>) => new Headers(init);
const now = Date.parse("2026-01-01T00:00:00Z");

describe("retryAfterMs", () => {
  test("retry-after-ms wins over retry-after", () => {
    expect(retryAfterMs(headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1500);
  });
  test("retry-after in seconds, fractional allowed", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": " 0.5 " }), now)).toBe(500);
    expect(retryAfterMs(headers({ "retry-after": ".5" }), now)).toBe(500);
    expect(retryAfterMs(headers({ "retry-after": "5." }), now)).toBe(5000);
    expect(retryAfterMs(headers({ "retry-after": "+5" }), now)).toBe(5000);
    expect(retryAfterMs(headers({ "retry-after-ms": ".25" }), now)).toBe(0.25);
  });
  test("retry-after as an HTTP date, past dates mean now", () => {
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }), now)).toBe(0);
  });
  test("unreadable, negative or missing values say nothing", () => {
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "-5" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "1,5" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after-ms": "abc", "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
