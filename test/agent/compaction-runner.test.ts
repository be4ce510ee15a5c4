/**
 * When a session compacts on its own, with a model double that can report overflows and set
 * the clock of its answers: the order of entries decides, never their timestamps.
 */
import { describe, expect, test } from "bun:test";
import type { PigEvent } from "../../src/agent/events.ts";
import { AgentSession } from "../../src/agent/session.ts";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type StreamFunction } from "../../src/ai/types.ts";
import { SUMMARIZER_SYSTEM_PROMPT } from "../../src/compaction/index.ts";
import type { CompactionEntry } from "../../src/session/format.ts";
import { fakeModel } from "../helpers/fake-model.ts";
import { SessionStore } from "../../src/session/store.ts";
import { tempDir } from "../helpers/tmp.ts";

const MODEL = fakeModel("http://127.0.0.1:9", { id: "m", name: "m", provider: "test", contextWindow: 50_000, maxTokens: 1000 });

interface Answer {
  text?: string;
  error?: string;
  /** Input tokens the answer reports. */
  input?: number;
  /** The answer's timestamp, when it must not be the real clock. */
  at?: "compaction-time";
}

/** Answers prompts from `answers`; summary requests (the summariser's system prompt) get "SUMMARY". */
function model(answers: Answer[], clock: { compactionTime?: number }) {
  const prompts: LlmContext[] = [];
  let summaries = 0;
  const stream: StreamFunction = async function* (m, context): AsyncIterable<AssistantMessageEvent> {
    const isSummary = context.systemPrompt === SUMMARIZER_SYSTEM_PROMPT;
    const message = newAssistantMessage(m);
    yield { type: "start", partial: message };
    if (isSummary) {
      summaries++;
      message.content.push({ type: "text", text: "SUMMARY" });
      yield { type: "done", reason: "stop", message };
      return;
    }
    prompts.push(structuredClone(context));
    const answer = answers.shift() ?? { text: "(none left)" };
    if (answer.at === "compaction-time") message.timestamp = clock.compactionTime!;
    if (answer.input !== undefined) message.usage = { ...message.usage, input: answer.input, totalTokens: answer.input };
    if (answer.error) {
      yield { type: "error", reason: "error", error: { ...message, stopReason: "error", errorMessage: answer.error } };
      return;
    }
    message.content.push({ type: "text", text: answer.text ?? "" });
    yield { type: "done", reason: "stop", message };
  };
  return { stream, prompts, summaries: () => summaries };
}

function session(answers: Answer[]) {
  const clock: { compactionTime?: number } = {};
  const fake = model(answers, clock);
  const agentDir = tempDir();
  const store = SessionStore.create({ cwd: "/work", dir: tempDir() });
  const agent = new AgentSession({
    store,
    registry: new ModelRegistry({ agentDir, env: { TEST_API_KEY: "k" } }),
    model: MODEL,
    thinkingLevel: "off",
    tools: [],
    systemSections: () => ({ preamble: "system" }),
    cwd: "/work",
    agentDir,
    retry: { enabled: false, maxRetries: 0, baseDelayMs: 1, provider: { maxRetryDelayMs: 0 } },
    compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 1 },
    streamFor: () => fake.stream,
  });
  const events: PigEvent[] = [];
  agent.subscribe((event) => {
    events.push(event);
    // The compaction entry is the last thing written before its compaction_end.
    if (event.type === "compaction_end" && clock.compactionTime === undefined) {
      const last = store.branchRecords().at(-1)!;
      if (last.type === "compaction") clock.compactionTime = Date.parse(last.timestamp);
    }
  });
  const entries = () => store.branchRecords().map((r) => (r.type === "message" ? `${r.type}:${r.role}` : r.type));
  return { agent, events, fake, store, entries, settings: agent.compaction };
}

const compactionEnds = (events: PigEvent[]) => events.filter((e) => e.type === "compaction_end") as Extract<PigEvent, { type: "compaction_end" }>[];

describe("overflow recovery", () => {
  test("a second overflow right after recovery gives up, even when its answer carries the compaction's millisecond", async () => {
    const overflow = "prompt is too long: 60000 tokens > 50000 maximum";
    const { agent, events, fake } = session([{ text: "first answer" }, { error: overflow }, { error: overflow, at: "compaction-time" }]);
    await agent.prompt("first");
    await agent.prompt("second");
    const ends = compactionEnds(events);
    expect(ends.map((e) => [e.reason, e.willRetry])).toEqual([
      ["overflow", true],
      ["overflow", false],
    ]);
    expect(ends[1]!.errorMessage).toContain("Context overflow recovery failed after one compact-and-retry attempt");
    // Giving up starts nothing: no compaction_start for it.
    expect(events.filter((e) => e.type === "compaction_start")).toHaveLength(1);
    expect(fake.prompts).toHaveLength(3);
    // The turn that overflowed is split off its history: two summaries.
    expect(fake.summaries()).toBe(2);
  });

  test("the compaction is written beside the failed answer; keeping nothing, it names itself, and the retry sends the prompt and the summary", async () => {
    const overflow = "prompt is too long: 60000 tokens > 50000 maximum";
    const { agent, events, fake, store, entries } = session([{ text: "first answer" }, { error: overflow }, { text: "recovered" }]);
    await agent.prompt("first");
    await agent.prompt("second");
    expect(compactionEnds(events).map((e) => [e.reason, e.willRetry])).toEqual([["overflow", true]]);
    const failed = store.tree.records.find((r) => r.type === "message" && r.role === "assistant" && JSON.stringify(store.materialise(r)).includes(overflow))!;
    const compactionRecord = store.tree.records.find((r) => r.type === "compaction")!;
    const compaction = store.materialise(compactionRecord) as CompactionEntry;
    // Beside the failed answer (a child of the prompt it failed to answer), not after it.
    expect(compaction.parentId).toBe(failed.parentId!);
    expect(compaction.firstKeptEntryId).toBe(compaction.id);
    expect(store.branchRecords().map((r) => r.id)).not.toContain(failed.id);
    expect(entries().slice(-2)).toEqual(["compaction", "message:assistant"]);
    // The retried request: the checkpoint's prompt and the summary, nothing else.
    const retried = fake.prompts.at(-1)!;
    expect(retried.systemPrompt).toBe("system");
    expect(retried.messages).toHaveLength(1);
    expect(JSON.stringify(retried.messages[0])).toContain("SUMMARY");
    // The result names the compaction itself as first kept, and says what is left.
    const end = compactionEnds(events)[0]!;
    expect(end.result).toMatchObject({ firstKeptEntryId: compaction.id });
    expect((end.result as { estimatedTokensAfter?: number }).estimatedTokensAfter).toBeGreaterThan(0);
  });

  test("with room to keep more than the failed turn, the kept part ends with its prompt, right above the compaction", async () => {
    const overflow = "prompt is too long: 60000 tokens > 50000 maximum";
    const { agent, fake, store } = session([{ text: "first answer" }, { error: overflow }, { text: "recovered" }]);
    // "second" (2 tokens) and "first answer" (3) reach 5 at the first answer: the cut is there.
    agent.compaction = { ...agent.compaction, keepRecentTokens: 5 };
    await agent.prompt("first ".repeat(40));
    await agent.prompt("second");
    const compaction = store.materialise(store.tree.records.find((r) => r.type === "compaction")!) as CompactionEntry;
    const prompt = store.getEntry(compaction.parentId!)!;
    expect(prompt).toMatchObject({ type: "message", message: { role: "user", content: [{ type: "text", text: "second" }] } });
    expect(store.getEntry(compaction.firstKeptEntryId!)).toMatchObject({ message: { role: "assistant", content: [{ text: "first answer" }] } });
    const retried = fake.prompts.at(-1)!;
    expect(retried.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(retried.messages[2])).toContain("second");
    expect(JSON.stringify(retried.messages)).not.toContain(overflow);
  });

  test("an answer that completed but reports more input than the window is compacted after, not answered twice", async () => {
    const { agent, events, fake, entries } = session([{ text: "first answer" }, { text: "a complete answer", input: 60_000 }, { text: "never asked for" }]);
    await agent.prompt("first");
    await agent.prompt("second");
    // One request per prompt: nothing is sent after the compaction.
    expect(fake.prompts).toHaveLength(2);
    // The cut falls inside the last turn: the history and the turn's start are summarised apart.
    expect(fake.summaries()).toBe(2);
    // Reported as an overflow that is not retried, as Pi ≥ 0.87 does.
    expect(compactionEnds(events).map((e) => [e.reason, e.willRetry, e.aborted])).toEqual([["overflow", false, false]]);
    const tail = entries().slice(-3);
    expect(tail).toEqual(["message:user", "message:assistant", "compaction"]);
    expect(agent.messages.filter((m) => m.role === "assistant").at(-1)).toMatchObject({ content: [{ type: "text", text: "a complete answer" }] });
    // The next prompt goes out on the compacted context and ends with the user's message.
    await agent.prompt("third");
    expect(fake.prompts).toHaveLength(3);
    expect(fake.prompts[2]!.messages.at(-1)).toMatchObject({ role: "user" });
    expect(entries().filter((e) => e === "message:assistant").length).toBe(3);
  });
});
