import { describe, expect, test } from "bun:test";
import {
  compact,
  CompactionCancelledError,
  INITIAL_INSTRUCTIONS,
  isNothingToCompact,
  NOTHING_TO_COMPACT,
  prepareCompaction,
  SUMMARIZER_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  turnPrefixRequestText,
  UPDATE_INSTRUCTIONS,
  type CompactionPreparation,
  type CompactOptions,
} from "../../src/compaction/index.ts";
import type { SessionEntry } from "../../src/session/format.ts";
import { fakeStream, type Reply, type StreamCall } from "./fake-stream.ts";
import { assistantMsg, chain, compaction, fakeModel, m, sized, toolCall, toolResult, userMsg } from "./helpers.ts";

const settings = { reserveTokens: 1000, keepRecentTokens: 100 };

function prepared(branch: readonly SessionEntry[]): CompactionPreparation {
  const result = prepareCompaction(branch, settings);
  if (!result || isNothingToCompact(result)) throw new Error("expected a preparation");
  return result;
}

/** user, answer, then a big user message that is kept: a clean cut. */
const simpleBranch = () => chain(m(userMsg("first question")), m(assistantMsg([toolCall("write", { path: "out.txt" })])), m(userMsg(sized(200))), m(assistantMsg("ok", { totalTokens: 321 })));

/** A turn too big to keep whole: the cut falls after its first tool result. */
const splitBranch = (withHistory = true) =>
  chain(
    ...(withHistory ? [m(userMsg("earlier")), m(assistantMsg("earlier answer"))] : []),
    m(userMsg("big task")),
    m(assistantMsg([toolCall("read", { path: "in.txt" })])),
    m(toolResult(sized(300))),
    m(assistantMsg(sized(150))),
  );

function options(reply: (call: StreamCall) => Reply | Promise<Reply>, extra: Partial<CompactOptions> = {}) {
  const fake = fakeStream(reply);
  return { calls: fake.calls, options: { model: fakeModel(), stream: fake.stream, apiKey: "key", headers: { "x-h": "1" }, ...extra } as CompactOptions };
}

const USAGE0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const usage = (input: number, output: number) => ({ ...USAGE0, input, output, totalTokens: input + output, cost: { ...USAGE0.cost } });
const isPrefix = (call: StreamCall) => call.userText.startsWith("# Conversation\n");

describe("compact", () => {
  test("sends one summary request: system prompt, one user message with the wrapped conversation, no tools", async () => {
    const { calls, options: opts } = options(() => ({ text: ["SUMMARY", "more"], thinking: "ignored", usage: { input: 70, output: 7 } }));
    const result = await compact(prepared(simpleBranch()), opts);
    expect(calls.length).toBe(1);
    const call = calls[0]!;
    expect(call.context.systemPrompt).toBe(SUMMARIZER_SYSTEM_PROMPT);
    expect(call.context.tools).toBeUndefined();
    expect(call.context.messages.map((message) => message.role)).toEqual(["user"]);
    expect(call.userText).toBe(`<conversation>\n[User]: first question\n\n[Assistant tool calls]: write(path="out.txt")\n</conversation>\n\n${INITIAL_INSTRUCTIONS}`);
    expect(call.options).toMatchObject({ apiKey: "key", headers: { "x-h": "1" }, maxTokens: 800 });
    expect(call.options.reasoning).toBeUndefined();
    expect(result).toEqual({
      summary: "SUMMARY\nmore\n\n<modified-files>\nout.txt\n</modified-files>",
      firstKeptEntryId: "e3",
      tokensBefore: 321,
      usage: usage(70, 7),
      details: { readFiles: [], modifiedFiles: ["out.txt"] },
    });
    // Pi's key order: the usage sits between the numbers and the file lists.
    expect(Object.keys(result)).toEqual(["summary", "firstKeptEntryId", "tokensBefore", "usage", "details"]);
  });

  test("each request is routed on its own: a fresh session id per summary", async () => {
    const { calls, options: opts } = options(() => ({ text: "S" }));
    await compact(prepared(simpleBranch()), opts);
    await compact(prepared(simpleBranch()), opts);
    const [first, second] = calls.map((call) => call.options.sessionId);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
  });

  test("updates the previous summary and appends the user's focus", async () => {
    const branch = chain(
      m(userMsg("old")),
      compaction("PREV", "e1"),
      m(userMsg("new question")),
      m(assistantMsg("new answer")),
      m(userMsg(sized(200))),
    );
    const { calls, options: opts } = options(() => ({ text: "S2" }), { customInstructions: "names only" });
    await compact(prepared(branch), opts);
    expect(calls[0]!.userText).toBe(
      `<conversation>\n[User]: old\n\n[User]: new question\n\n[Assistant]: new answer\n</conversation>\n\n<previous-summary>\nPREV\n</previous-summary>\n\n${UPDATE_INSTRUCTIONS}\n\nAdditional focus: names only`,
    );
  });

  test("asks for reasoning at the session level only on reasoning models with thinking on", async () => {
    const reasoner = fakeModel(undefined, { reasoning: true });
    for (const [model, level, expected] of [
      [reasoner, "medium", "medium"],
      [reasoner, "off", undefined],
      [reasoner, undefined, undefined],
      [fakeModel(), "high", undefined],
    ] as const) {
      const { calls, options: opts } = options(() => ({ text: "S" }), { model, thinkingLevel: level });
      await compact(prepared(simpleBranch()), opts);
      expect(calls[0]!.options.reasoning).toBe(expected);
    }
  });

  test("summarises a split turn's history, then its prefix (one request at a time), joins them and adds up the usage", async () => {
    let running = 0;
    let overlapped = false;
    const { calls, options: opts } = options(async (call) => {
      overlapped ||= ++running > 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return isPrefix(call) ? { text: "PREFIX", usage: { input: 30, output: 3 } } : { text: "HISTORY", usage: { input: 100, output: 10 } };
    }, { thinkingLevel: "high", model: fakeModel(undefined, { reasoning: true }) });
    const result = await compact(prepared(splitBranch()), opts);
    expect(calls.map(isPrefix)).toEqual([false, true]);
    expect(overlapped).toBe(false);
    const [history, prefix] = calls;
    expect(history!.userText.endsWith(INITIAL_INSTRUCTIONS)).toBe(true);
    expect(history!.options.maxTokens).toBe(800);
    expect(prefix!.options.maxTokens).toBe(500);
    expect(prefix!.options.reasoning).toBe("high");
    // The turn's beginning under "# Conversation", the instructions under "# Instructions".
    expect(prefix!.userText.startsWith("# Conversation\n[User]: big task\n\n[Assistant tool calls]: read(path=\"in.txt\")\n\n[Tool result]: ")).toBe(true);
    expect(prefix!.userText.endsWith(`\n\n# Instructions\n${TURN_PREFIX_INSTRUCTIONS}`)).toBe(true);
    expect(prefix!.userText).not.toContain("<conversation>");
    expect(result.summary).toBe("HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX\n\n<read-files>\nin.txt\n</read-files>");
    expect(result.usage).toEqual(usage(130, 13));
  });

  test("a split turn with nothing new before it: the previous summary (or 'No prior history.') without a request", async () => {
    const alone = options(() => ({ text: "PREFIX", usage: { input: 5, output: 1 } }));
    const first = await compact(prepared(splitBranch(false)), alone.options);
    expect(alone.calls.length).toBe(1);
    expect(alone.calls[0]!.userText.startsWith("# Conversation\n[User]: big task\n\n")).toBe(true);
    expect(alone.calls[0]!.userText.endsWith(turnPrefixRequestText("").slice("# Conversation\n".length))).toBe(true);
    expect(first.summary.startsWith("No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")).toBe(true);
    expect(first.usage).toEqual(usage(5, 1));

    const afterCompaction = chain(
      m(userMsg("old")),
      compaction("PREVIOUS SUMMARY", "e3"),
      m(userMsg("big task")),
      m(assistantMsg([toolCall("read", { path: "in.txt" })])),
      m(toolResult(sized(300))),
      m(assistantMsg(sized(150))),
    );
    const again = options(() => ({ text: "PREFIX" }));
    const second = await compact(prepared(afterCompaction), again.options);
    expect(again.calls.map(isPrefix)).toEqual([true]);
    expect(second.summary.startsWith("PREVIOUS SUMMARY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")).toBe(true);
  });

  test("output budgets never exceed what the model can write", async () => {
    const { calls, options: opts } = options(() => ({ text: "S" }), { model: fakeModel(undefined, { maxTokens: 300 }) });
    await compact(prepared(splitBranch()), opts);
    expect(calls.map((call) => call.options.maxTokens)).toEqual([300, 300]);
  });

  test("reports a failed summary with the provider's message", async () => {
    await expect(compact(prepared(simpleBranch()), options(() => ({ error: "boom" })).options)).rejects.toThrow("Summarization failed: boom");
    await expect(compact(prepared(simpleBranch()), options(() => ({ error: undefined })).options)).rejects.toThrow("Summarization failed: Unknown error");
  });

  test("an answer cut off at its output cap, or one calling a tool, is never a summary", async () => {
    await expect(compact(prepared(simpleBranch()), options(() => ({ text: "partial", stopReason: "length" })).options)).rejects.toThrow(
      "Summarization failed: generation hit the token cap and the summary is incomplete",
    );
    await expect(compact(prepared(simpleBranch()), options(() => ({ text: "", toolCall: true })).options)).rejects.toThrow(
      "Summarization attempted to call a tool",
    );
    const prefixCut = options((call) => (isPrefix(call) ? { text: "partial", stopReason: "length" } : { text: "H" }));
    await expect(compact(prepared(splitBranch()), prefixCut.options)).rejects.toThrow("Turn prefix summarization failed: generation hit the token cap");
  });

  test("a failed history summary stops there; a failed turn-prefix summary fails the compaction", async () => {
    const history = options(() => ({ error: "down" }));
    await expect(compact(prepared(splitBranch()), history.options)).rejects.toThrow("Summarization failed: down");
    expect(history.calls.map(isPrefix)).toEqual([false]);
    const prefix = options((call) => (isPrefix(call) ? { error: "too long" } : { text: "H" }));
    await expect(compact(prepared(splitBranch()), prefix.options)).rejects.toThrow("Turn prefix summarization failed: too long");
    expect(prefix.calls.map(isPrefix)).toEqual([false, true]);
  });

  test("throws a cancellation error when aborted before or during a request, and sends nothing after it", async () => {
    const before = new AbortController();
    before.abort();
    const early = options(() => ({ text: "S" }), { signal: before.signal });
    await expect(compact(prepared(simpleBranch()), early.options)).rejects.toBeInstanceOf(CompactionCancelledError);
    expect(early.calls.length).toBe(0);

    const during = new AbortController();
    const late = options(() => {
      setTimeout(() => during.abort(), 1);
      return { hang: true };
    }, { signal: during.signal });
    const error = await compact(prepared(splitBranch()), late.options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompactionCancelledError);
    expect((error as Error).message).toBe("Compaction cancelled");
    expect(late.calls.length).toBe(1);
  });

  test("refuses a preparation with nothing to summarise without sending anything", async () => {
    const small = prepareCompaction(chain(m(userMsg("hi")), m(assistantMsg("hello"))), settings);
    expect(isNothingToCompact(small)).toBe(true);
    const preparation = isNothingToCompact(small) ? small.preparation! : undefined!;
    const { calls, options: opts } = options(() => ({ text: "S" }));
    await expect(compact(preparation, opts)).rejects.toThrow(NOTHING_TO_COMPACT);
    expect(calls.length).toBe(0);
  });
});
