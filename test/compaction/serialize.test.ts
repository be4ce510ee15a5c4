import { describe, expect, test } from "bun:test";
import {
  branchSummaryInstructions,
  BRANCH_SUMMARY_INSTRUCTIONS,
  compactionInstructions,
  INITIAL_INSTRUCTIONS,
  serializeConversation,
  SUMMARIZER_SYSTEM_PROMPT,
  summaryRequestText,
  TURN_PREFIX_INSTRUCTIONS,
  turnPrefixRequestText,
  UPDATE_INSTRUCTIONS,
} from "../../src/compaction/index.ts";
import type { LlmMessage } from "../../src/ai/message-types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { assistantMsg, toolCall, toolResult, userMsg } from "./helpers.ts";

describe("serializeConversation", () => {
  test("labels each part and separates parts with a blank line", () => {
    const messages = convertToLlm([
      userMsg("question"),
      assistantMsg([
        { type: "thinking", thinking: "hmm" },
        { type: "thinking", thinking: "ok" },
        { type: "text", text: "one" },
        { type: "text", text: "two" },
        toolCall("read", { path: "a.ts", offset: 3 }),
        toolCall("bash", { command: "ls -la" }),
      ]),
      toolResult("contents"),
    ]);
    expect(serializeConversation(messages)).toBe(
      [
        "[User]: question",
        "[Assistant thinking]: hmm\nok",
        "[Assistant]: one\ntwo",
        '[Assistant tool calls]: read(path="a.ts", offset=3); bash(command="ls -la")',
        "[Tool result]: contents",
      ].join("\n\n"),
    );
  });

  test("joins user text parts without a separator and leaves images and empty parts out", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "a" }, { type: "image", mimeType: "image/png", data: "AA" }, { type: "text", text: "b" }], timestamp: 1 },
      { role: "user", content: "", timestamp: 1 },
      { role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "image", mimeType: "image/png", data: "AA" }], isError: false, timestamp: 1 },
      assistantMsg([]) as LlmMessage,
    ];
    expect(serializeConversation(messages)).toBe("[User]: ab");
  });

  test("cuts tool results after 2000 characters and says how much was left out", () => {
    const text = "x".repeat(2000) + "y".repeat(345);
    expect(serializeConversation(convertToLlm([toolResult(text)]))).toBe(`[Tool result]: ${"x".repeat(2000)}\n\n[... 345 more characters truncated]`);
    expect(serializeConversation(convertToLlm([toolResult("x".repeat(2000))]))).toBe(`[Tool result]: ${"x".repeat(2000)}`);
  });

  test("serialises bash runs, custom messages and summaries as the user messages the model sees", () => {
    const messages = convertToLlm([
      { role: "bashExecution", command: "ls", output: "a", exitCode: 2, cancelled: false, truncated: false, timestamp: 1 },
      { role: "custom", customType: "n", content: "note", display: true, timestamp: 1 },
      { role: "branchSummary", summary: "S", fromId: "x", timestamp: 1 },
    ] as AgentMessage[]);
    expect(serializeConversation(messages)).toBe(
      "[User]: Ran `ls`\n```\na\n```\n\nCommand exited with code 2\n\n[User]: note\n\n[User]: The following is a summary of a branch that this conversation came back from:\n\n<summary>\nS</summary>",
    );
  });
});

describe("summary prompts", () => {
  test("carry the phrases the fake LLM (and Pi-compatible tooling) recognise", () => {
    expect(SUMMARIZER_SYSTEM_PROMPT).toContain("context summarization assistant");
    expect(INITIAL_INSTRUCTIONS).toContain("Create a structured context checkpoint summary");
    expect(UPDATE_INSTRUCTIONS).toContain("NEW conversation messages to incorporate");
    expect(TURN_PREFIX_INSTRUCTIONS).toContain("Do not infer or recreate later messages");
    // Each phrase identifies one kind of request only.
    for (const text of [UPDATE_INSTRUCTIONS, TURN_PREFIX_INSTRUCTIONS, BRANCH_SUMMARY_INSTRUCTIONS]) expect(text).not.toContain("Create a structured context checkpoint summary");
    for (const text of [INITIAL_INSTRUCTIONS, TURN_PREFIX_INSTRUCTIONS, BRANCH_SUMMARY_INSTRUCTIONS]) expect(text).not.toContain("NEW conversation messages to incorporate");
    for (const text of [INITIAL_INSTRUCTIONS, UPDATE_INSTRUCTIONS, BRANCH_SUMMARY_INSTRUCTIONS]) expect(text).not.toContain("Do not infer or recreate later messages");
  });

  test("use Pi's section headings", () => {
    const sections = ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps"];
    for (const text of [INITIAL_INSTRUCTIONS, UPDATE_INSTRUCTIONS, BRANCH_SUMMARY_INSTRUCTIONS]) {
      for (const heading of sections) expect(text).toContain(`${heading}\n`);
    }
    expect(INITIAL_INSTRUCTIONS).toContain("## Critical Context\n");
    expect(UPDATE_INSTRUCTIONS).toContain("## Critical Context\n");
    expect(BRANCH_SUMMARY_INSTRUCTIONS).not.toContain("## Critical Context");
    for (const heading of ["## Original Request", "## Progress So Far", "## Context Needed to Continue"]) expect(TURN_PREFIX_INSTRUCTIONS).toContain(`${heading}\n`);
    for (const text of [SUMMARIZER_SYSTEM_PROMPT, INITIAL_INSTRUCTIONS, TURN_PREFIX_INSTRUCTIONS]) expect(text).toBe(text.trim());
  });

  test("choose update instructions when there is a previous summary and append the user's focus", () => {
    expect(compactionInstructions(undefined)).toBe(INITIAL_INSTRUCTIONS);
    expect(compactionInstructions("prev")).toBe(UPDATE_INSTRUCTIONS);
    expect(compactionInstructions("", "names")).toBe(`${INITIAL_INSTRUCTIONS}\n\nAdditional focus: names`);
    expect(compactionInstructions("prev", "names")).toBe(`${UPDATE_INSTRUCTIONS}\n\nAdditional focus: names`);
  });

  test("let branch-summary instructions be replaced only together with custom text", () => {
    expect(branchSummaryInstructions()).toBe(BRANCH_SUMMARY_INSTRUCTIONS);
    expect(branchSummaryInstructions(undefined, true)).toBe(BRANCH_SUMMARY_INSTRUCTIONS);
    expect(branchSummaryInstructions("mine", true)).toBe("mine");
    expect(branchSummaryInstructions("mine")).toBe(`${BRANCH_SUMMARY_INSTRUCTIONS}\n\nAdditional focus: mine`);
  });

  test("set a turn prefix apart under # Conversation and # Instructions headings, without tags", () => {
    expect(turnPrefixRequestText("C")).toBe(`# Conversation\nC\n\n# Instructions\n${TURN_PREFIX_INSTRUCTIONS}`);
  });

  test("wrap the conversation, the previous summary and the instructions in that order", () => {
    expect(summaryRequestText({ conversation: "C", instructions: "I" })).toBe("<conversation>\nC\n</conversation>\n\nI");
    expect(summaryRequestText({ conversation: "C", previousSummary: "P", instructions: "I" })).toBe(
      "<conversation>\nC\n</conversation>\n\n<previous-summary>\nP\n</previous-summary>\n\nI",
    );
  });
});
