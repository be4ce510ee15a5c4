/** One line per entry, for trees: the entries Pi 0.87 added are described, not called unknown. */
import { describe, expect, test } from "bun:test";
import { describeEntry } from "../../src/session/describe.ts";
import type { SessionEntry } from "../../src/session/format.ts";

const at = { id: "e1", parentId: null, timestamp: "2026-12-01T00:00:00.000Z" };
const entry = (fields: Record<string, unknown>) => ({ ...at, ...fields }) as unknown as SessionEntry;

describe("describeEntry", () => {
  test("a system message says which sections and tools it declares or changes", () => {
    const first = { role: "system", content: "", sections: { preamble: "P", cwd: "C" }, toolsAdded: [{ name: "read" }, { name: "bash" }], timestamp: 1 };
    expect(describeEntry(entry({ type: "message", message: first }))).toBe("prompt  preamble, cwd · tools +read +bash");
    const patch = { role: "system", content: "", sections: { skills: null }, toolsRemoved: [{ name: "bash" }], timestamp: 2 };
    expect(describeEntry(entry({ type: "message", message: patch }))).toBe("prompt  −skills · tools −bash");
    expect(describeEntry(entry({ type: "message", message: { role: "system", content: "", replace: true, timestamp: 3 } }))).toBe("prompt  starts over:");
  });

  test("a context edit names its target and that pig does not apply it; a usage entry its tokens", () => {
    expect(describeEntry(entry({ type: "context_edit", targetId: "abc", replacement: null }))).toBe("context edit  hides abc (pig does not apply it)");
    expect(describeEntry(entry({ type: "context_edit", targetId: "abc", replacement: { content: "x" } }))).toBe("context edit  replaces abc (pig does not apply it)");
    expect(describeEntry(entry({ type: "usage", kind: "cache_warm", provider: "anthropic", model: "m", usage: { totalTokens: 500 } }))).toBe("usage cache_warm  anthropic/m 500 tokens");
  });
});
