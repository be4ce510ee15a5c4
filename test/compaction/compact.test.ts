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

describe("compact", () => {
  test("sends one summary request: system prompt, one user message with the wrapped conversation, no tools", async () => {
    const { calls, options: opts } = options(() => ({ text: ["SUMMARY", "more"], thinking: "ignored" }));
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
      details: { readFiles: [], modifiedFiles: ["out.txt"] },
    });
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

  test("summarises a split turn's history and prefix in parallel and joins them", async () => {
    let release: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const { calls, options: opts } = options(async (call) => {
      if (calls.length === 2) release();
      await bothStarted;
      return { text: call.userText.includes(TURN_PREFIX_INSTRUCTIONS) ? "PREFIX" : "HISTORY" };
    }, { thinkingLevel: "high", model: fakeModel(undefined, { reasoning: true }) });
    const result = await compact(prepared(splitBranch()), opts);
    expect(calls.length).toBe(2);
    const prefix = calls.find((call) => call.userText.endsWith(TURN_PREFIX_INSTRUCTIONS))!;
    const history = calls.find((call) => call.userText.endsWith(INITIAL_INSTRUCTIONS))!;
    expect(history.options.maxTokens).toBe(800);
    expect(prefix.options.maxTokens).toBe(500);
    expect(prefix.options.reasoning).toBe("high");
    expect(prefix.userText.startsWith("<conversation>\n[User]: big task\n\n[Assistant tool calls]: read(path=\"in.txt\")\n\n[Tool result]: ")).toBe(true);
    expect(result.summary).toBe("HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX\n\n<read-files>\nin.txt\n</read-files>");
  });

  test("uses 'No prior history.' without a request when only the turn prefix is to be summarised", async () => {
    const { calls, options: opts } = options(() => ({ text: "PREFIX" }));
    const result = await compact(prepared(splitBranch(false)), opts);
    expect(calls.length).toBe(1);
    expect(calls[0]!.userText.endsWith(TURN_PREFIX_INSTRUCTIONS)).toBe(true);
    expect(result.summary.startsWith("No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")).toBe(true);
  });

  test("reports a failed summary with the provider's message", async () => {
    await expect(compact(prepared(simpleBranch()), options(() => ({ error: "boom" })).options)).rejects.toThrow("Summarization failed: boom");
    await expect(compact(prepared(simpleBranch()), options(() => ({ error: undefined })).options)).rejects.toThrow("Summarization failed: Unknown error");
  });

  test("reports a failed turn-prefix summary and cancels the history request still running", async () => {
    let historySignal: AbortSignal | undefined;
    const { options: opts } = options((call) => {
      if (call.userText.endsWith(TURN_PREFIX_INSTRUCTIONS)) return { error: "too long" };
      historySignal = call.options.signal;
      return { hang: true };
    });
    await expect(compact(prepared(splitBranch()), opts)).rejects.toThrow("Turn prefix summarization failed: too long");
    expect(historySignal?.aborted).toBe(true);
  });

  test("throws a cancellation error when aborted before or during the request", async () => {
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
