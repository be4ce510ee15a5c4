/**
 * The `Agent` of `pi-agent-core` as extensions get it from pig, driven by a fake stream function:
 * its runs, tools, hooks, queues, abort and listeners, with upstream's event order and state.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "typebox";
import type { LlmContext, Model } from "../../../src/ai/types.ts";
import { Agent, type AgentEvent, type AgentTool, type StreamFn } from "../../../src/extensions/compat/agent.ts";
import { createAssistantMessageEventStream } from "../../../src/extensions/compat/ai.ts";
import { createReadOnlyTools } from "../../../src/extensions/compat/tools.ts";
import type { AgentMessage } from "../../../src/session/format.ts";
import { tempDir } from "../../helpers/tmp.ts";

type Json = Record<string, any>;

const MODEL: Model = {
  id: "m1",
  name: "m1",
  api: "openai-completions",
  provider: "p1",
  baseUrl: "http://127.0.0.1:1",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

interface Reply {
  text?: string;
  calls?: { id: string; name: string; args: Json }[];
  /** Streams the text, then waits for the request's abort. */
  holdUntilAbort?: boolean;
  /** The stream function throws instead of answering. */
  throws?: string;
}

/** A stream function answering with `replies` in turn, recording what each request got. */
function fakeStream(replies: Reply[]) {
  const requests: { context: LlmContext; options: Json }[] = [];
  const fn: StreamFn = (model, context, options) => {
    requests.push({ context: structuredClone(context), options });
    const reply = replies[requests.length - 1] ?? { text: "no more replies" };
    if (reply.throws) throw new Error(reply.throws);
    const stream = createAssistantMessageEventStream();
    const message: Json = { role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: Date.now() };
    const snapshot = () => structuredClone(message);
    void (async () => {
      await Promise.resolve();
      stream.push({ type: "start", partial: snapshot() });
      if (reply.text !== undefined) {
        message.content.push({ type: "text", text: "" });
        stream.push({ type: "text_start", contentIndex: 0, partial: snapshot() });
        message.content[0].text = reply.text;
        stream.push({ type: "text_delta", contentIndex: 0, delta: reply.text, partial: snapshot() });
        if (reply.holdUntilAbort) {
          const signal = options.signal as AbortSignal;
          if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          stream.push({ type: "error", reason: "aborted", error: { ...snapshot(), stopReason: "aborted", errorMessage: "Request was aborted" } });
          return;
        }
        stream.push({ type: "text_end", contentIndex: 0, content: reply.text, partial: snapshot() });
      }
      for (const call of reply.calls ?? []) {
        message.content.push({ type: "toolCall", id: call.id, name: call.name, arguments: call.args });
        stream.push({ type: "toolcall_start", contentIndex: message.content.length - 1, partial: snapshot() });
        stream.push({ type: "toolcall_end", contentIndex: message.content.length - 1, toolCall: message.content.at(-1), partial: snapshot() });
      }
      if (reply.calls?.length) message.stopReason = "toolUse";
      stream.push({ type: "done", reason: message.stopReason, message: snapshot() });
    })();
    return stream;
  };
  return { fn, requests };
}

/** Every event an agent reports, from now on. */
function record(agent: Agent): AgentEvent[] {
  const events: AgentEvent[] = [];
  agent.subscribe((event) => void events.push(event));
  return events;
}

/** Event types, with the role of each message event's message. */
function shape(events: AgentEvent[]): string[] {
  return events.map((e) => (e.type === "message_start" || e.type === "message_end" ? `${e.type}:${e.message.role}` : e.type));
}

function textOf(message: AgentMessage | undefined): string {
  const content = (message as Json | undefined)?.content;
  if (typeof content === "string") return content;
  return (content ?? []).filter((b: Json) => b.type === "text").map((b: Json) => b.text).join("");
}

function echoTool(log: string[] = []): AgentTool {
  return {
    name: "echo",
    label: "Echo",
    description: "Says the word back",
    parameters: Type.Object({ word: Type.String() }),
    async execute(toolCallId, params, signal, onUpdate) {
      log.push(`${toolCallId}:${String(params.word)}:${signal instanceof AbortSignal}`);
      onUpdate?.({ content: [{ type: "text", text: "working" }], details: { step: 1 } });
      return { content: [{ type: "text", text: `echo ${String(params.word)}` }], details: { word: params.word } };
    },
  };
}

describe("Agent runs", () => {
  test("a text reply: upstream's events in order, the transcript kept, the request built from the prompt and the options", async () => {
    const stream = fakeStream([{ text: "hello there" }]);
    const agent = new Agent({
      initialState: { systemPrompt: "You are terse.", model: MODEL, thinkingLevel: "high", tools: [echoTool()] },
      streamFn: stream.fn,
      getApiKey: (provider) => (provider === "p1" ? "key-1" : undefined),
      sessionId: "s-1",
    });
    const events = record(agent);
    await agent.prompt("hi");
    expect(shape(events)).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_update",
      "message_update",
      "message_update",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    const updates = events.filter((e) => e.type === "message_update") as Json[];
    expect(updates.map((u) => u.assistantMessageEvent.type)).toEqual(["text_start", "text_delta", "text_end"]);
    expect(textOf(updates[1]!.message)).toBe("hello there");
    const end = events.at(-1) as Json;
    expect(end.messages.map((m: Json) => m.role)).toEqual(["user", "assistant"]);
    // The prompt and tools are the transcript's leading system message, as upstream keeps them.
    expect(agent.state.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(agent.state.systemPrompt).toBe("You are terse.");
    expect(textOf(agent.state.messages[2])).toBe("hello there");
    expect(agent.state.isStreaming).toBe(false);
    expect(agent.state.errorMessage).toBeUndefined();
    const [request] = stream.requests;
    expect(request!.context.systemPrompt).toBe("You are terse.");
    expect(request!.context.messages.map((m) => m.role)).toEqual(["user"]);
    expect(request!.context.tools).toEqual([
      { name: "echo", description: "Says the word back", parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } },
    ]);
    expect(request!.options).toMatchObject({ apiKey: "key-1", reasoning: "high", sessionId: "s-1" });
    expect(request!.options.signal).toBeInstanceOf(AbortSignal);
  });

  test("a tool call runs the tool, its result goes back in a second turn, and the events follow upstream's order", async () => {
    const stream = fakeStream([{ calls: [{ id: "c1", name: "echo", args: { word: "kumquat" } }] }, { text: "done" }]);
    const ran: string[] = [];
    const agent = new Agent({ initialState: { model: MODEL, tools: [echoTool(ran)] }, streamFn: stream.fn });
    const pendingAtStart: boolean[] = [];
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") pendingAtStart.push(agent.state.pendingToolCalls.has(event.toolCallId));
    });
    const events = record(agent);
    await agent.prompt("say kumquat");
    expect(ran).toEqual(["c1:kumquat:true"]);
    expect(pendingAtStart).toEqual([true]);
    expect(agent.state.pendingToolCalls.size).toBe(0);
    expect(shape(events).filter((t) => t !== "message_update")).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "tool_execution_start",
      "tool_execution_update",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    const byType = (type: string) => events.find((e) => e.type === type) as Json;
    expect(byType("tool_execution_start")).toEqual({ type: "tool_execution_start", toolCallId: "c1", toolName: "echo", args: { word: "kumquat" } });
    expect(byType("tool_execution_update").partialResult).toEqual({ content: [{ type: "text", text: "working" }], details: { step: 1 } });
    expect(byType("tool_execution_end")).toMatchObject({ toolCallId: "c1", toolName: "echo", isError: false, result: { content: [{ type: "text", text: "echo kumquat" }], details: { word: "kumquat" } } });
    expect((events.filter((e) => e.type === "turn_end")[0] as Json).toolResults.map((r: Json) => r.toolCallId)).toEqual(["c1"]);
    // The second request carries the call and its result.
    const second = stream.requests[1]!.context.messages as Json[];
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(second[2]).toMatchObject({ toolCallId: "c1", toolName: "echo", isError: false, content: [{ type: "text", text: "echo kumquat" }] });
    expect(agent.state.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
  });

  test("beforeToolCall blocks a call: the tool does not run and the model gets the reason as an error result", async () => {
    const stream = fakeStream([{ calls: [{ id: "c1", name: "echo", args: { word: "x" } }] }, { text: "ok" }]);
    const ran: string[] = [];
    const seen: Json[] = [];
    const agent = new Agent({
      initialState: { model: MODEL, tools: [echoTool(ran)] },
      streamFn: stream.fn,
      beforeToolCall: async (context) => {
        seen.push({ id: context.toolCall.id, name: context.toolCall.name, args: context.args, answer: context.assistantMessage.role, last: context.context.messages.at(-1)?.role });
        return { block: true, reason: "read-only review" };
      },
    });
    const events = record(agent);
    await agent.prompt("go");
    expect(ran).toEqual([]);
    expect(seen).toEqual([{ id: "c1", name: "echo", args: { word: "x" }, answer: "assistant", last: "assistant" }]);
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "read-only review" }] } });
    const result = (stream.requests[1]!.context.messages as Json[])[2]!;
    expect(result).toMatchObject({ role: "toolResult", toolCallId: "c1", isError: true, content: [{ type: "text", text: "read-only review" }] });
  });

  test("afterToolCall replaces a result's content; one that throws turns the result into an error", async () => {
    const stream = fakeStream([{ calls: [{ id: "c1", name: "echo", args: { word: "a" } }, { id: "c2", name: "echo", args: { word: "b" } }] }, { text: "ok" }]);
    const agent = new Agent({
      initialState: { model: MODEL, tools: [echoTool()] },
      streamFn: stream.fn,
      afterToolCall: async ({ toolCall, result, isError }) => {
        if (toolCall.id === "c2") throw new Error("after hook failed");
        return { content: [{ type: "text", text: `${textOf(result as AgentMessage)} (checked, error: ${isError})` }] };
      },
    });
    await agent.prompt("go");
    const results = (stream.requests[1]!.context.messages as Json[]).filter((m) => m.role === "toolResult");
    expect(results.map((r) => [r.toolCallId, textOf(r as AgentMessage), r.isError])).toEqual([
      ["c1", "echo a (checked, error: false)", false],
      ["c2", "after hook failed", true],
    ]);
  });

  test("a failing stream function ends the run with an error answer, and the next prompt runs normally", async () => {
    const stream = fakeStream([{ throws: "provider exploded" }, { text: "fine now" }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    const events = record(agent);
    await agent.prompt("first");
    expect(shape(events)).toEqual(["agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant", "message_end:assistant", "turn_end", "agent_end"]);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "provider exploded", provider: "p1", model: "m1" });
    expect(agent.state.errorMessage).toBe("provider exploded");
    await agent.prompt("second");
    expect(textOf(agent.state.messages.at(-1))).toBe("fine now");
    expect(agent.state.errorMessage).toBeUndefined();
  });

  test("without a stream function or a key the Agent has pig make the call; outside a pig extension process that is an error saying so", async () => {
    const agent = new Agent({ initialState: { model: { ...MODEL, provider: "no-such-provider" } } });
    await agent.prompt("hi");
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", provider: "no-such-provider", model: "m1" });
    expect(agent.state.errorMessage).toBe("No API key for provider no-such-provider in this extension process, and no connection to pig to call the model with its credentials");
  });
});

describe("Agent tool execution", () => {
  /** Two tools that each wait until the other has started: only a parallel batch can finish. */
  function meetingTools(log: string[]): AgentTool[] {
    const started = new Map<string, () => void>();
    const waits = new Map<string, Promise<void>>();
    for (const name of ["left", "right"]) waits.set(name, new Promise<void>((resolve) => started.set(name, resolve)));
    return ["left", "right"].map((name) => ({
      name,
      description: name,
      parameters: Type.Object({}),
      async execute() {
        log.push(`start ${name}`);
        started.get(name)!();
        await waits.get(name === "left" ? "right" : "left");
        log.push(`end ${name}`);
        return { content: [{ type: "text", text: name }] };
      },
    }));
  }

  test("parallel (the default): the calls of one answer run together; results keep the answer's order", async () => {
    const stream = fakeStream([{ calls: [{ id: "l", name: "left", args: {} }, { id: "r", name: "right", args: {} }] }, { text: "ok" }]);
    const log: string[] = [];
    const agent = new Agent({ initialState: { model: MODEL, tools: meetingTools(log) }, streamFn: stream.fn });
    await agent.prompt("go");
    expect(log.slice(0, 2).sort()).toEqual(["start left", "start right"]);
    const results = (stream.requests[1]!.context.messages as Json[]).filter((m) => m.role === "toolResult");
    expect(results.map((r) => r.toolCallId)).toEqual(["l", "r"]);
  });

  test("sequential: each call finishes before the next starts, and a sequential tool makes its whole batch sequential", async () => {
    for (const options of [{ toolExecution: "sequential" as const }, { sequentialTool: true }]) {
      const log: string[] = [];
      const tool = (name: string): AgentTool => ({
        name,
        description: name,
        parameters: Type.Object({}),
        ...(options.sequentialTool && name === "second" ? { executionMode: "sequential" as const } : {}),
        async execute() {
          log.push(`start ${name}`);
          await Promise.resolve();
          log.push(`end ${name}`);
          return { content: [{ type: "text", text: name }] };
        },
      });
      const stream = fakeStream([{ calls: [{ id: "1", name: "first", args: {} }, { id: "2", name: "second", args: {} }] }, { text: "ok" }]);
      const agent = new Agent({
        initialState: { model: MODEL, tools: [tool("first"), tool("second")] },
        streamFn: stream.fn,
        ...("toolExecution" in options ? { toolExecution: options.toolExecution } : {}),
      });
      await agent.prompt("go");
      expect(log).toEqual(["start first", "end first", "start second", "end second"]);
    }
  });

  test("pig's built-in tools from the compat factories run as Agent tools, in the directory they were made for", async () => {
    const dir = tempDir("pig-agent-tools-");
    writeFileSync(join(dir, "notes.txt"), "kumquats are citrus\n");
    const stream = fakeStream([{ calls: [{ id: "r", name: "read", args: { path: "notes.txt" } }] }, { text: "ok" }]);
    const agent = new Agent({ initialState: { model: MODEL, tools: createReadOnlyTools(dir) as AgentTool[] }, streamFn: stream.fn });
    await agent.prompt("read my notes");
    expect(stream.requests[0]!.context.tools?.map((t) => t.name)).toEqual(["read", "grep", "find", "ls"]);
    const result = (stream.requests[1]!.context.messages as Json[]).find((m) => m.role === "toolResult")!;
    expect(result.isError).toBe(false);
    expect(textOf(result as AgentMessage)).toContain("kumquats are citrus");
  });

  test("an unknown tool and arguments that do not fit the schema are error results; the tool never runs", async () => {
    const ran: string[] = [];
    const stream = fakeStream([{ calls: [{ id: "u", name: "nope", args: {} }, { id: "b", name: "echo", args: { word: 5 } }] }, { text: "ok" }]);
    const agent = new Agent({ initialState: { model: MODEL, tools: [echoTool(ran)] }, streamFn: stream.fn });
    await agent.prompt("go");
    expect(ran).toEqual(["b:5:true"]);
    const results = (stream.requests[1]!.context.messages as Json[]).filter((m) => m.role === "toolResult");
    expect(results[0]).toMatchObject({ toolCallId: "u", isError: true, content: [{ type: "text", text: "Tool nope not found" }] });
  });
});

describe("Agent control", () => {
  test("abort mid-stream ends the run with an aborted answer; the run is idle afterwards", async () => {
    const stream = fakeStream([{ text: "partial answ", holdUntilAbort: true }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    const events = record(agent);
    let streamingSeen: string | undefined;
    agent.subscribe((event) => {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
        streamingSeen = textOf(agent.state.streamingMessage);
        agent.abort();
      }
    });
    await agent.prompt("tell me a long story");
    expect(streamingSeen).toBe("partial answ");
    expect(shape(events).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(agent.state.errorMessage).toBe("Request was aborted");
    expect(agent.state.isStreaming).toBe(false);
    expect(agent.signal).toBeUndefined();
  });

  test("abort while a tool runs: the tool sees the signal, the next call of the batch is not run, and no further request is made", async () => {
    const stream = fakeStream([{ calls: [{ id: "1", name: "stop", args: {} }, { id: "2", name: "echo", args: { word: "x" } }] }, { text: "never" }]);
    const ran: string[] = [];
    let agent!: Agent;
    const stopper: AgentTool = {
      name: "stop",
      description: "aborts the run",
      parameters: Type.Object({}),
      async execute(_id, _params, signal) {
        agent.abort();
        return { content: [{ type: "text", text: `aborted: ${signal?.aborted}` }] };
      },
    };
    agent = new Agent({ initialState: { model: MODEL, tools: [stopper, echoTool(ran)] }, streamFn: stream.fn, toolExecution: "sequential" });
    await agent.prompt("go");
    expect(ran).toEqual([]);
    expect(stream.requests).toHaveLength(1);
    const results = agent.state.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => [textOf(r), (r as Json).isError])).toEqual([
      ["aborted: true", false],
      ["The run was aborted before this tool ran", true],
    ]);
  });

  test("prompt() and continue() during a run are refused; waitForIdle settles with the run", async () => {
    const stream = fakeStream([{ text: "slow", holdUntilAbort: true }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    let refusals: string[] = [];
    agent.subscribe(async (event) => {
      if (event.type !== "message_update") return;
      refusals = await Promise.all([agent.prompt("again"), agent.continue()].map((p) => p.then(() => "ran", (e: Error) => e.message)));
      agent.abort();
    });
    const running = agent.prompt("first");
    expect(agent.state.isStreaming).toBe(true);
    const idle = agent.waitForIdle();
    await idle;
    expect(agent.state.isStreaming).toBe(false);
    await running;
    expect(refusals).toHaveLength(2);
    for (const message of refusals) expect(message).toContain("while a run is in progress");
    await agent.waitForIdle();
  });

  test("listeners are awaited in order, and the agent is idle only when the last one has settled", async () => {
    const stream = fakeStream([{ text: "ok" }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    const order: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inListener = new Promise<void>((resolve) => (entered = resolve));
    agent.subscribe(async (event) => {
      if (event.type !== "agent_end") return;
      order.push("first listener");
      entered();
      await released;
      order.push("first listener done");
    });
    agent.subscribe((event) => {
      if (event.type === "agent_end") order.push("second listener");
    });
    const running = agent.prompt("hi").then(() => order.push("prompt settled"));
    await inListener;
    expect(agent.state.isStreaming).toBe(true);
    const idle = agent.waitForIdle().then(() => order.push("idle"));
    release();
    await Promise.all([running, idle]);
    expect(order.slice(0, 3)).toEqual(["first listener", "first listener done", "second listener"]);
    expect(order.slice(3).sort()).toEqual(["idle", "prompt settled"]);
  });

  test("unsubscribing stops a listener's events; the others keep theirs", async () => {
    const stream = fakeStream([{ text: "ok" }, { text: "again" }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    const kept = record(agent);
    const dropped: string[] = [];
    const unsubscribe = agent.subscribe((event) => {
      dropped.push(event.type);
      if (event.type === "message_end") unsubscribe();
    });
    await agent.prompt("one");
    await agent.prompt("two");
    expect(dropped).toEqual(["agent_start", "turn_start", "message_start", "message_end"]);
    expect(kept.filter((e) => e.type === "agent_end")).toHaveLength(2);
  });

  test("a listener that throws stops the run and fails its prompt()", async () => {
    const stream = fakeStream([{ text: "ok", holdUntilAbort: true }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    agent.subscribe((event) => {
      if (event.type === "message_update") throw new Error("listener broke");
    });
    await expect(agent.prompt("hi")).rejects.toThrow("listener broke");
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(agent.state.isStreaming).toBe(false);
  });
});

describe("Agent queues and transcript", () => {
  test("a follow-up queued during a run is answered in a turn of its own once the agent would stop", async () => {
    const stream = fakeStream([{ text: "first answer" }, { text: "follow-up answer" }]);
    const agent = new Agent({ initialState: { model: MODEL }, streamFn: stream.fn });
    agent.subscribe((event) => {
      if (event.type === "agent_start") agent.followUp({ role: "user", content: [{ type: "text", text: "and then?" }], timestamp: Date.now() });
    });
    const events = record(agent);
    await agent.prompt("start");
    expect(stream.requests).toHaveLength(2);
    expect((stream.requests[1]!.context.messages as AgentMessage[]).map(textOf)).toEqual(["start", "first answer", "and then?"]);
    expect(events.filter((e) => e.type === "agent_end")).toHaveLength(1);
    expect(events.filter((e) => e.type === "turn_start")).toHaveLength(2);
    expect(agent.hasQueuedMessages()).toBe(false);
  });

  test("steering queued while a tool runs comes before the next request, one message at a time by default", async () => {
    const stream = fakeStream([{ calls: [{ id: "c", name: "echo", args: { word: "w" } }] }, { text: "two" }, { text: "three" }]);
    let agent!: Agent;
    const steeringTool: AgentTool = {
      ...echoTool(),
      async execute() {
        agent.steer({ role: "user", content: "steer one", timestamp: 1 });
        agent.steer({ role: "user", content: "steer two", timestamp: 2 });
        expect(agent.peekQueuedMessages().map(textOf)).toEqual(["steer one"]);
        return { content: [{ type: "text", text: "echoed" }] };
      },
    };
    agent = new Agent({ initialState: { model: MODEL, tools: [steeringTool] }, streamFn: stream.fn });
    await agent.prompt("go");
    expect(stream.requests).toHaveLength(3);
    expect((stream.requests[1]!.context.messages as AgentMessage[]).map(textOf).slice(-2)).toEqual(["echoed", "steer one"]);
    expect((stream.requests[2]!.context.messages as AgentMessage[]).map(textOf).slice(-2)).toEqual(["two", "steer two"]);
  });

  test("continue() goes on from a transcript that ends with a user message, and refuses one that ends with an answer", async () => {
    const stream = fakeStream([{ text: "continued" }]);
    const agent = new Agent({ initialState: { model: MODEL, systemPrompt: "sys", messages: [{ role: "user", content: "pending question", timestamp: 1 }] }, streamFn: stream.fn });
    const events = record(agent);
    await agent.continue();
    expect(shape(events)).toEqual(["agent_start", "turn_start", "message_start:assistant", "message_update", "message_update", "message_update", "message_end:assistant", "turn_end", "agent_end"]);
    expect((stream.requests[0]!.context.messages as AgentMessage[]).map(textOf)).toEqual(["pending question"]);
    expect(stream.requests[0]!.context.systemPrompt).toBe("sys");
    await expect(agent.continue()).rejects.toThrow("ends with an assistant message");
    await expect(new Agent({ streamFn: stream.fn }).continue()).rejects.toThrow("no message to go on from");
  });

  test("tools changed between prompts are declared to the model by a system message before the next request", async () => {
    const stream = fakeStream([{ text: "one" }, { text: "two" }]);
    const agent = new Agent({ initialState: { model: MODEL, tools: [echoTool()] }, streamFn: stream.fn });
    await agent.prompt("first");
    const other: AgentTool = { ...echoTool(), name: "shout", description: "Says it loudly" };
    agent.state.tools = [other];
    await agent.prompt("second");
    expect(stream.requests[0]!.context.tools?.map((t) => t.name)).toEqual(["echo"]);
    expect(stream.requests[1]!.context.tools?.map((t) => t.name)).toEqual(["shout"]);
    const declared = agent.state.messages.filter((m) => m.role === "system") as Json[];
    expect(declared).toHaveLength(2);
    expect(declared[1]).toMatchObject({ toolsAdded: [{ name: "shout" }], toolsRemoved: [{ name: "echo" }] });
    // It comes right before the prompt it goes with.
    expect(agent.state.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "system", "user", "assistant"]);
  });

  test("transformContext and convertToLlm shape each request without changing the transcript", async () => {
    const stream = fakeStream([{ text: "ok" }]);
    const agent = new Agent({
      initialState: { model: MODEL, systemPrompt: "base", messages: [{ role: "custom", customType: "note", content: "a note", display: true, timestamp: 1 } as AgentMessage] },
      streamFn: stream.fn,
      transformContext: async (messages) => messages.filter((m) => textOf(m) !== "drop me"),
      convertToLlm: (messages) => messages.map((m) => (m.role === "custom" ? { role: "user", content: `note: ${textOf(m)}`, timestamp: 1 } : m)),
    });
    await agent.prompt([{ role: "user", content: "drop me", timestamp: 2 }, { role: "user", content: "keep me", timestamp: 3 }]);
    expect((stream.requests[0]!.context.messages as AgentMessage[]).map(textOf)).toEqual(["note: a note", "keep me"]);
    expect(stream.requests[0]!.context.systemPrompt).toBe("base");
    expect(agent.state.messages.map(textOf)).toEqual(["base", "a note", "drop me", "keep me", "ok"]);
  });

  test("reset() keeps the prompt and tools and forgets the rest; systemPrompt can be set as before Pi 0.87", async () => {
    const stream = fakeStream([{ text: "ok" }, { text: "again" }]);
    const agent = new Agent({ initialState: { model: MODEL, systemPrompt: "old prompt", tools: [echoTool()] }, streamFn: stream.fn });
    await agent.prompt("hi");
    agent.followUp({ role: "user", content: "later", timestamp: 1 });
    agent.reset();
    expect(agent.state.messages.map((m) => m.role)).toEqual(["system"]);
    expect(agent.hasQueuedMessages()).toBe(false);
    agent.state.systemPrompt = "new prompt";
    await agent.prompt("hi again");
    expect(stream.requests[1]!.context.systemPrompt).toBe("new prompt");
    expect(stream.requests[1]!.context.tools?.map((t) => t.name)).toEqual(["echo"]);
    expect((stream.requests[1]!.context.messages as AgentMessage[]).map(textOf)).toEqual(["hi again"]);
  });

  test("options upstream's loop has and pig's does not are refused when given", () => {
    expect(() => new Agent({ finishTurn: () => undefined } as never)).toThrow("Agent option finishTurn is not available in pig's extension runtime");
  });
});
