/**
 * An AgentSession on a scripted in-process model: the model answers from a list (text, tool
 * calls, a gate to hold it, an error) and records every context it was given.
 */
import type { PigEvent } from "../../src/agent/events.ts";
import { AgentSession, type AgentSessionOptions } from "../../src/agent/session.ts";
import { ModelRegistry } from "../../src/ai/registry.ts";
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamFunction } from "../../src/ai/types.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { tempDir } from "./tmp.ts";

export const MODEL: Model = {
  id: "m",
  name: "m",
  api: "openai-completions",
  provider: "test",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100000,
  maxTokens: 1000,
};

export type Reply = { text?: string; calls?: { id: string; name: string; arguments: Record<string, unknown> }[]; gate?: Promise<void>; error?: string };

/** A model that answers from a list and records the contexts it was given. */
export function scripted(replies: Reply[]) {
  const seen: LlmContext[] = [];
  const stream: StreamFunction = async function* (model, context, options): AsyncIterable<AssistantMessageEvent> {
    seen.push(structuredClone(context));
    const reply = replies.shift() ?? { text: "(no more replies)" };
    const message = newAssistantMessage(model);
    // As the providers do: a signal aborted before the call ends it at once.
    if (options.signal?.aborted) {
      message.stopReason = "aborted";
      message.errorMessage = "Request was aborted";
      yield { type: "error", reason: "aborted", error: message };
      return;
    }
    yield { type: "start", partial: message };
    if (reply.error) {
      message.stopReason = "error";
      message.errorMessage = reply.error;
      yield { type: "error", reason: "error", error: message };
      return;
    }
    if (reply.gate) {
      await Promise.race([reply.gate, new Promise((r) => options.signal?.addEventListener("abort", r))]);
      if (options.signal?.aborted) {
        message.stopReason = "aborted";
        message.errorMessage = "Request was aborted";
        yield { type: "error", reason: "aborted", error: message };
        return;
      }
    }
    if (reply.text) {
      message.content.push({ type: "text", text: reply.text });
      yield { type: "text_start", contentIndex: 0, partial: message };
      yield { type: "text_delta", contentIndex: 0, delta: reply.text, partial: message };
      yield { type: "text_end", contentIndex: 0, content: reply.text, partial: message };
    }
    for (const call of reply.calls ?? []) {
      message.content.push({ type: "toolCall", ...call });
      const index = message.content.length - 1;
      yield { type: "toolcall_start", contentIndex: index, partial: message };
      yield { type: "toolcall_end", contentIndex: index, toolCall: { type: "toolCall", ...call }, partial: message };
    }
    message.stopReason = reply.calls?.length ? "toolUse" : "stop";
    yield { type: "done", reason: message.stopReason as "stop" | "toolUse", message };
  };
  return { stream, seen };
}

export function tool(name: string, run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<string>, extra: Partial<AnyTool> = {}): AnyTool {
  return {
    name,
    label: name,
    description: name,
    parameters: { type: "object", properties: { ms: { type: "number" } } },
    async execute(_id, args, signal) {
      return { content: [{ type: "text", text: await run(args, signal) }] };
    },
    ...extra,
  };
}

export const sleepTool = tool("sleep", async (args) => {
  await Bun.sleep(Number(args.ms ?? 0));
  return `slept ${args.ms}`;
});

/** Resolves once `check` holds (a state of the run, never a time). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await Bun.sleep(1);
}

export function makeSession(
  replies: Reply[],
  tools: AnyTool[] = [sleepTool],
  options: {
    mode?: "all" | "one-at-a-time";
    dir?: string;
    defaultThinkingLevel?: "low" | "high";
    maxRetries?: number;
    /** Any other session options (hooks, commands, expansion …). */
    more?: Partial<AgentSessionOptions>;
  } = {},
) {
  const { stream, seen } = scripted(replies);
  const agentDir = tempDir();
  const store = SessionStore.create({ cwd: "/work", dir: options.dir ?? tempDir() });
  const registry = new ModelRegistry({ agentDir, env: { TEST_API_KEY: "k" } });
  const session = new AgentSession({
    store,
    registry,
    model: MODEL,
    thinkingLevel: "off",
    tools,
    systemSections: () => ({ preamble: "system" }),
    cwd: "/work",
    agentDir,
    retry: { enabled: options.maxRetries !== undefined, maxRetries: options.maxRetries ?? 0, baseDelayMs: 1, provider: { maxRetryDelayMs: 0 } },
    steeringMode: options.mode ?? "one-at-a-time",
    followUpMode: options.mode ?? "one-at-a-time",
    streamFor: () => stream,
    ...(options.defaultThinkingLevel ? { defaultThinkingLevel: () => options.defaultThinkingLevel } : {}),
    ...options.more,
  });
  const events: PigEvent[] = [];
  session.subscribe((e) => events.push(e));
  return { session, events, seen, store };
}


export const types = (events: PigEvent[]) => events.map((e) => e.type);
