/** Short session ids that never stand for two sessions. */
import { describe, expect, test } from "bun:test";
import { uniquePrefixes } from "../../src/session/id-prefix.ts";

describe("uniquePrefixes", () => {
  test("eight characters when nothing else shares them", () => {
    const prefixes = uniquePrefixes(["01a232c8-1111-7000-8000-000000000001", "01b00000-2222-7000-8000-000000000002"]);
    expect([...prefixes.values()]).toEqual(["01a232c8", "01b00000"]);
  });

  test("ids started within the same minute get as many characters as tell them apart", () => {
    const ids = ["01a232c8-aa11-7000-8000-000000000001", "01a232c8-aa22-7000-8000-000000000002", "01a232c8-b000-7000-8000-000000000003"];
    const prefixes = uniquePrefixes(ids);
    expect(prefixes.get(ids[0]!)).toBe("01a232c8-aa1");
    expect(prefixes.get(ids[1]!)).toBe("01a232c8-aa2");
    expect(prefixes.get(ids[2]!)).toBe("01a232c8-b");
    // No printed prefix is the start of any other id.
    for (const [id, prefix] of prefixes) {
      expect(ids.filter((other) => other !== id && other.startsWith(prefix))).toEqual([]);
    }
  });

  test("an id that is the start of another is printed whole; a repeated id counts once", () => {
    const prefixes = uniquePrefixes(["abcdef0123", "abcdef0123", "abcdef01", "abcdef0199"]);
    expect(prefixes.get("abcdef01")).toBe("abcdef01");
    expect(prefixes.get("abcdef0123")).toBe("abcdef012");
    expect(prefixes.get("abcdef0199")).toBe("abcdef019");
  });

  test("the minimum length is kept for short and lone ids", () => {
    expect(uniquePrefixes(["0123456789abcdef"]).get("0123456789abcdef")).toBe("01234567");
    expect(uniquePrefixes(["abc"]).get("abc")).toBe("abc");
  });
});
