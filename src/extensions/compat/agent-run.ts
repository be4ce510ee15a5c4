/**
 * The compat `Agent`'s options as pig's own agent loop (agent/loop.ts) takes them: the stream
 * function an extension gives (or pig's `streamSimple`), its tools, `beforeToolCall` /
 * `afterToolCall`, `transformContext` and `convertToLlm`. What these get and return is the
 * extension's code, so it is checked here: a stream that throws or ends without an answer
 * becomes a failed answer, a tool result without content gets an empty one.
 */
import * as v from "valibot";
import type { LoopConfig } from "../../agent/loop.ts";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamOptions } from "../../ai/types.ts";
import { convertToLlm as toLlmMessages } from "../../session/convert.ts";
import type { AgentMessage, ToolDeclaration } from "../../session/format.ts";
import { currentSystemMessage, declaredTools, toolChanges } from "../../session/system-messages.ts";
import type { AnyTool, ToolContent, ToolResult } from "../../tools/types.ts";

type Json = Record<string, unknown>;

/** What a stream function returns: upstream's `AssistantMessageEventStream`, or any iterable of its events. */
export type AgentEventSource = AsyncIterable<unknown> & { result?: () => Promise<unknown> };
/** The context is pig's provider context (`systemPrompt`, `messages`, `tools`), as pig's providers take it. */
export type StreamFn = (model: Model, context: LlmContext, options: Json) => AgentEventSource | Promise<AgentEventSource>;

export interface AgentToolResult {
  content: ToolContent[];
  details?: unknown;
  usage?: unknown;
  terminate?: boolean;
}

export interface AgentTool {
  name: string;
  label?: string;
  description: string;
  parameters: unknown;
  executionMode?: "sequential" | "parallel";
  prepareArguments?: (args: unknown) => unknown;
  execute(toolCallId: string, params: Record<string, unknown>, signal?: AbortSignal, onUpdate?: (partial: AgentToolResult) => void): Promise<AgentToolResult>;
}

export type AgentToolCall = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };
export interface AgentContext {
  messages: AgentMessage[];
  tools: AgentTool[];
}
interface ToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: AgentToolCall;
  args: Record<string, unknown>;
  context: AgentContext;
}
export type BeforeToolCall = (context: ToolCallContext, signal?: AbortSignal) => Promise<{ block?: boolean; reason?: string } | undefined>;
export type AfterToolCall = (
  context: ToolCallContext & { result: AgentToolResult; isError: boolean },
  signal?: AbortSignal,
) => Promise<{ content?: ToolContent[]; details?: unknown; isError?: boolean } | undefined>;

/** What one run needs from the Agent, read when it is needed (an extension may change the Agent's fields between turns). */
export interface RunSetup {
  stream: StreamFn;
  streamOptions: () => Json;
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  convertToLlm: (messages: AgentMessage[]) => unknown[] | Promise<unknown[]>;
  beforeToolCall?: BeforeToolCall;
  afterToolCall?: AfterToolCall;
  toolExecution: "sequential" | "parallel";
  takeSteering: () => AgentMessage[];
  takeFollowUps: () => AgentMessage[];
  /** The run's transcript (system messages included) and tools, as the loop has them now. */
  context: AgentContext;
  /** The latest assistant message of the run: the one whose tool calls are running. */
  answer: () => AssistantMessage | undefined;
}

const FinalSchema = v.looseObject({ role: v.literal("assistant"), content: v.array(v.unknown()), stopReason: v.string() });
const PartialSchema = v.looseObject({ type: v.string(), partial: v.looseObject({ content: v.array(v.unknown()) }) });
const ToolResultSchema = v.looseObject({ content: v.optional(v.array(v.looseObject({ type: v.string() })), []) });

/** An answer that never came, shaped as upstream's Agent shapes one: aborted when the run was. */
export function failedAnswer(model: Model, error: unknown, signal: AbortSignal): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text: "" }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: signal.aborted ? "aborted" : "error",
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
}

function finalEvent(message: unknown, model: Model, signal: AbortSignal): AssistantMessageEvent {
  if (!v.is(FinalSchema, message)) return finalEvent(failedAnswer(model, new Error("the stream function ended without an assistant message"), signal), model, signal);
  const answer = message as unknown as AssistantMessage;
  if (answer.stopReason === "error" || answer.stopReason === "aborted") return { type: "error", reason: answer.stopReason, error: answer };
  return { type: "done", reason: answer.stopReason === "length" || answer.stopReason === "toolUse" ? answer.stopReason : "stop", message: answer };
}

/** The stream function's events as the loop reads them: always ending with one `done` or `error`. */
async function* answerEvents(setup: RunSetup, model: Model, context: LlmContext, signal: AbortSignal): AsyncIterable<AssistantMessageEvent> {
  try {
    const apiKey = setup.getApiKey ? await setup.getApiKey(model.provider) : undefined;
    const source = await setup.stream(model, context, { ...setup.streamOptions(), ...(apiKey ? { apiKey } : {}), signal });
    for await (const raw of source) {
      const event = raw as Json;
      if (event?.type === "done" || event?.type === "error") {
        const final = finalEvent(event.type === "done" ? event.message : event.error, model, signal);
        // The provider's own event when it is whole: it may say which tool calls arrived broken.
        yield final.type === event.type ? (event as unknown as AssistantMessageEvent) : final;
        return;
      }
      if (v.is(PartialSchema, event)) yield event as unknown as AssistantMessageEvent;
    }
    yield finalEvent(typeof source.result === "function" ? await source.result() : undefined, model, signal);
  } catch (error) {
    yield finalEvent(failedAnswer(model, error, signal), model, signal);
  }
}

/** As upstream declares a tool to the model: the JSON of its schema. */
export function toolDeclaration(tool: AgentTool): ToolDeclaration {
  return { name: tool.name, description: tool.description ?? "", parameters: JSON.parse(JSON.stringify(tool.parameters ?? {})) as Json };
}

/**
 * `pending` with a system message in front of its first other message when the tools the
 * transcript declares (with `pending`) are not `tools`: the model is told of the change before
 * the next request, as upstream does. Unchanged when they are the same.
 */
export function declareToolChanges(transcript: readonly AgentMessage[], pending: AgentMessage[], tools: readonly AgentTool[]): AgentMessage[] {
  const { toolsAdded, toolsRemoved } = toolChanges(declaredTools(currentSystemMessage([...transcript, ...pending])), tools.map(toolDeclaration));
  if (toolsAdded.length === 0 && toolsRemoved.length === 0) return pending;
  const update: AgentMessage = {
    role: "system",
    content: "",
    timestamp: Date.now(),
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
  const first = pending.findIndex((m) => m.role !== "system");
  const at = first === -1 ? pending.length : first;
  return [...pending.slice(0, at), update, ...pending.slice(at)];
}

function loopTool(tool: AgentTool): AnyTool {
  return {
    name: tool.name,
    label: tool.label ?? tool.name,
    description: tool.description ?? "",
    parameters: toolDeclaration(tool).parameters,
    ...(tool.executionMode ? { executionMode: tool.executionMode } : {}),
    ...(tool.prepareArguments ? { prepareArguments: (args: Json) => tool.prepareArguments!(args) as Json } : {}),
    async execute(toolCallId, args, signal, onUpdate) {
      // Updates count only while the call runs, as upstream's.
      let running = true;
      try {
        const result = await tool.execute(toolCallId, args, signal, (partial) => {
          if (running) onUpdate(partial as ToolResult);
        });
        const checked = v.safeParse(ToolResultSchema, result);
        if (!checked.success) throw new Error(`tool ${tool.name} returned a result that is not an object with content blocks`);
        return checked.output as unknown as ToolResult;
      } finally {
        running = false;
      }
    },
  };
}

function callOf(answer: AssistantMessage | undefined, id: string): AgentToolCall {
  const call = answer?.content.find((b) => b.type === "toolCall" && b.id === id);
  return call as AgentToolCall;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The messages one request sends: the extension's `transformContext` and `convertToLlm` see the
 * whole transcript, system messages included. The prompt and tools come from the system messages
 * `convertToLlm` returns, or, when it leaves them out (pig's `convertToLlm` does), from the
 * transcript's.
 */
async function requestMessages(setup: RunSetup, messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> {
  const shaped = setup.transformContext ? await setup.transformContext([...messages], signal) : messages;
  const converted = (await setup.convertToLlm([...shaped])) as AgentMessage[];
  const isSystem = (m: AgentMessage) => m?.role === "system";
  const system = converted.some(isSystem) ? converted.filter(isSystem) : shaped.filter(isSystem);
  return [...system, ...converted.filter((m) => m && !isSystem(m))];
}

/** pig's loop configuration for one run of `model` with `tools`. */
export function loopConfig(setup: RunSetup, model: Model, tools: readonly AgentTool[]): LoopConfig {
  const view = (id: string, input: Record<string, unknown>): ToolCallContext => ({
    assistantMessage: setup.answer()!,
    toolCall: callOf(setup.answer(), id),
    args: input,
    context: setup.context,
  });
  return {
    model,
    stream: (m, context, options: StreamOptions) => answerEvents(setup, m, context, options.signal!),
    // The key and options are the Agent's, asked for by `answerEvents` at each call.
    streamOptions: async () => ({ apiKey: "" }),
    convert: toLlmMessages,
    rewriteWithSystem: (messages, signal) => requestMessages(setup, messages, signal),
    takeSteering: setup.takeSteering,
    takeFollowUps: setup.takeFollowUps,
    tools: tools.map(loopTool),
    toolContext: { cwd: process.cwd(), agentDir: "" },
    toolExecution: setup.toolExecution,
    toolCall: async (event, signal) => {
      const aborted = { block: true, reason: "The run was aborted before this tool ran" };
      if (signal?.aborted) return aborted;
      const verdict = await setup.beforeToolCall?.(view(event.toolCallId, event.input), signal);
      if (signal?.aborted) return aborted;
      if (!verdict?.block) return undefined;
      return { block: true, ...(verdict.reason ? { reason: verdict.reason } : {}) };
    },
    toolResult: async (event, signal) => {
      if (!setup.afterToolCall) return undefined;
      try {
        const result = { content: event.content, details: event.details };
        const patch = await setup.afterToolCall({ ...view(event.toolCallId, event.input), result, isError: event.isError }, signal);
        if (!patch) return undefined;
        return {
          ...(patch.content !== undefined ? { content: patch.content } : {}),
          ...(patch.details !== undefined && patch.details !== null ? { details: patch.details } : {}),
          ...(patch.isError !== undefined ? { isError: patch.isError } : {}),
        };
      } catch (error) {
        return { content: [{ type: "text", text: errorText(error) }], details: {}, isError: true };
      }
    },
  };
}
