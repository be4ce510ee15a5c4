/**
 * When a session compacts on its own, with a model double that can report overflows and set
 * the clock of its answers: the order of entries decides, never their timestamps.
 */
import { describe, expect, test } from "bun:test";
import type { PigEvent } from "../../src/agent/events.ts";
import { AgentSession } from "../../src/agent/session.ts";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type StreamFunction } from "../../src/ai/types.ts";
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

/** Answers prompts from `answers`; summary requests (they carry `<conversation>`) get "SUMMARY". */
function model(answers: Answer[], clock: { compactionTime?: number }) {
  const prompts: LlmContext[] = [];
  let summaries = 0;
  const stream: StreamFunction = async function* (m, context): AsyncIterable<AssistantMessageEvent> {
    const first = context.messages[0]?.content;
    const isSummary = Array.isArray(first) && first.some((b) => b.type === "text" && b.text.includes("<conversation>"));
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
  return { agent, events, fake, store, entries };
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
    expect(fake.prompts).toHaveLength(3);
    expect(fake.summaries()).toBe(1);
  });

  test("an answer that completed but reports more input than the window is compacted after, not answered twice", async () => {
    const { agent, events, fake, entries } = session([{ text: "first answer" }, { text: "a complete answer", input: 60_000 }, { text: "never asked for" }]);
    await agent.prompt("first");
    await agent.prompt("second");
    // One request per prompt: nothing is sent after the compaction.
    expect(fake.prompts).toHaveLength(2);
    // The cut falls inside the last turn: the history and the turn's start are summarised apart.
    expect(fake.summaries()).toBe(2);
    expect(compactionEnds(events).map((e) => [e.reason, e.willRetry, e.aborted])).toEqual([["threshold", false, false]]);
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
