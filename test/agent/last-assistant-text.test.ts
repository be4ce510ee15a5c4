/** The last answer's text (RPC get_last_assistant_text, /copy) by upstream 1.x's rule. */
import { expect, test } from "bun:test";
import type { AgentMessage } from "../../src/session/format.ts";
import { lastAssistantText } from "../../src/agent/session-report.ts";

const answer = (stopReason: string, content: unknown[]): AgentMessage =>
  ({ role: "assistant", content, api: "x", provider: "p", model: "m", stopReason, timestamp: 1, usage: {} }) as unknown as AgentMessage;
const text = (t: string) => ({ type: "text", text: t });
const call = { type: "toolCall", id: "c", name: "ls", arguments: {} };

test("an aborted, failed or tool-only answer without text is passed over for the answer before it", () => {
  const good = answer("stop", [text("  the real answer \n")]);
  expect(lastAssistantText([good, answer("error", [])])).toBe("the real answer");
  expect(lastAssistantText([good, answer("aborted", [text("   ")])])).toBe("the real answer");
  expect(lastAssistantText([good, answer("toolUse", [call])])).toBe("the real answer");
});

test("an answer with text counts however it ended; one that ended normally without text gives none", () => {
  expect(lastAssistantText([answer("stop", [text("old")]), answer("aborted", [text("partial")])])).toBe("partial");
  expect(lastAssistantText([answer("stop", [text("old")]), answer("toolUse", [text("let me look"), call])])).toBe("let me look");
  expect(lastAssistantText([answer("stop", [text("old")]), answer("stop", [])])).toBeUndefined();
  expect(lastAssistantText([])).toBeUndefined();
});
