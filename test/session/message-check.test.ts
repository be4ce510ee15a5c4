/**
 * checkMessage picks a message's schema by its role, and a block's by its type, without trying
 * the others: what passes and what fails must be what the union of every option decided.
 */
import { expect, test } from "bun:test";
import { checkMessage } from "../../src/session/format.ts";
import { KNOWN_ROLES } from "../../src/session/message-format.ts";

const ok = (m: unknown) => checkMessage(m).ok;
const reason = (m: unknown) => {
  const r = checkMessage(m);
  return r.ok ? "" : r.reason;
};

test("a message of each known role passes in its own shape", () => {
  const assistant = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hm" },
      { type: "text", text: "hi" },
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
      { type: "tool_use", id: "c2", name: "read", input: {} },
      { type: "futureBlock", anything: 1 },
    ],
    api: "openai-completions",
    provider: "p",
    model: "m",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "toolUse",
    timestamp: 1,
  };
  expect(reason(assistant)).toBe("");
  expect(ok({ role: "user", content: [{ type: "text", text: "x" }, { type: "image", data: "AA==", mimeType: "image/png" }], timestamp: 1 })).toBe(true);
  expect(ok({ role: "user", content: "plain", timestamp: 1 })).toBe(true);
  expect(ok({ role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 1 })).toBe(true);
});

test("a known role or block type with bad fields fails, naming the field", () => {
  expect(reason({ role: "user", content: 5, timestamp: 1 })).toContain("content");
  expect(reason({ role: "user", content: [{ type: "text", text: 5 }], timestamp: 1 })).toContain("content");
  expect(ok({ role: "user", content: [{ type: "image", media_type: "image/png" }], timestamp: 1 })).toBe(false);
  expect(ok({ role: "user", content: [{ type: "image", media_type: "image/png", url: "https://x" }], timestamp: 1 })).toBe(true);
});

test("an unknown role or block type passes as written; a message without a role does not", () => {
  expect(ok({ role: "futureRole", whatever: [1, 2] })).toBe(true);
  expect(ok({ role: "user", content: [{ type: "audio", data: "…" }], timestamp: 1 })).toBe(true);
  expect(ok({ content: "no role" })).toBe(false);
  expect(ok({ role: 5 })).toBe(false);
  expect(ok(null)).toBe(false);
});

test("every known role has its own schema: a bare object of that role fails, never passes as unknown", () => {
  for (const role of KNOWN_ROLES) expect(ok({ role })).toBe(false);
});
