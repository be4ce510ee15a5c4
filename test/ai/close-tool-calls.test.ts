/**
 * closeToolCalls goes on from the walk of the previous call when the messages begin with the same
 * objects: its answer must be the one a walk over all of them gives, whatever came before.
 */
import { describe, expect, test } from "bun:test";
import { closeToolCalls, MISSING_TOOL_RESULT_TEXT } from "../../src/ai/transform.ts";
import type { LlmMessage, LlmToolCall } from "../../src/ai/types.ts";

/** The whole walk, written plainly: the reference the kept walk must match. */
function closedInFull(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let pending: LlmToolCall[] = [];
  let answered = new Set<string>();
  const close = () => {
    for (const call of pending) {
      if (!answered.has(call.id)) out.push({ role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }], isError: true, timestamp: 0 });
    }
    pending = [];
    answered = new Set();
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      close();
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      pending = message.content.filter((block): block is LlmToolCall => block.type === "toolCall");
    } else if (message.role === "toolResult") answered.add(message.toolCallId);
    else close();
    out.push(message);
  }
  close();
  return out;
}

/** Messages compared with the synthetic results' timestamps left out (they are the time of the call). */
const comparable = (messages: readonly LlmMessage[]) => messages.map((m) => (m.role === "toolResult" && m.content[0]?.type === "text" && m.content[0].text === MISSING_TOOL_RESULT_TEXT ? { ...m, timestamp: 0 } : m));

let seed = 7;
const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
let ids = 0;

/** A random message: answers with 0–2 calls (sometimes failed), results of some of them, user prompts. */
function randomMessage(open: LlmToolCall[]): LlmMessage {
  const r = next();
  if (r < 0.35) {
    const calls: LlmToolCall[] = Array.from({ length: Math.floor(next() * 3) }, () => ({ type: "toolCall", id: `c${ids++}`, name: "read", arguments: {} }));
    open.splice(0, open.length, ...calls);
    const stopReason = next() < 0.1 ? "error" : next() < 0.1 ? "aborted" : calls.length > 0 ? "toolUse" : "stop";
    return { role: "assistant", content: [{ type: "text", text: "a" }, ...calls], api: "openai-completions", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason, timestamp: 1 } as LlmMessage;
  }
  if (r < 0.85 && open.length > 0) {
    const call = open.shift()!;
    return { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: "r" }], isError: false, timestamp: 1 };
  }
  open.length = 0;
  return { role: "user", content: "u", timestamp: 1 };
}

describe("closeToolCalls", () => {
  test("a context that grows by appends gets the answer of a walk over all of it, every time", () => {
    const messages: LlmMessage[] = [];
    const open: LlmToolCall[] = [];
    for (let i = 0; i < 400; i++) {
      messages.push(randomMessage(open));
      // As a request does: a fresh array of the same message objects.
      const closed = closeToolCalls([...messages]);
      expect(comparable(closed)).toEqual(comparable(closedInFull(messages)));
    }
  });

  test("after a drop, an edit in the middle, another context or a shorter one, the answer is still the whole walk's", () => {
    const open: LlmToolCall[] = [];
    const messages: LlmMessage[] = Array.from({ length: 60 }, () => randomMessage(open));
    const other: LlmMessage[] = Array.from({ length: 30 }, () => randomMessage([]));
    const cases: LlmMessage[][] = [
      messages,
      messages.slice(0, -1), // the failed answer dropped before a retry
      [...messages.slice(0, 20), { role: "user", content: "edited", timestamp: 2 }, ...messages.slice(21)], // a message replaced (a compaction, a move in the tree)
      other, // another session's context
      messages.slice(0, 10), // a shorter branch
      messages,
      [...messages, { role: "user", content: "more", timestamp: 3 }],
    ];
    for (const context of cases) expect(comparable(closeToolCalls(context))).toEqual(comparable(closedInFull(context)));
  });

  test("a call without a result gets one, also when the walk went on from an earlier one", () => {
    const call: LlmToolCall = { type: "toolCall", id: "lonely", name: "bash", arguments: {} };
    const answer = { role: "assistant", content: [call], api: "openai-completions", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "toolUse", timestamp: 1 } as LlmMessage;
    const first = closeToolCalls([answer]);
    expect(first.map((m) => m.role)).toEqual(["assistant", "toolResult"]);
    const later = closeToolCalls([answer, { role: "user", content: "go on", timestamp: 2 }]);
    expect(later.map((m) => m.role)).toEqual(["assistant", "toolResult", "user"]);
    expect(later[1]).toMatchObject({ toolCallId: "lonely", isError: true });
  });
});
