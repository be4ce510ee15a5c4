/**
 * The answer of Pi's message protocol: an event stream of Pi's assistant-message events without
 * their `partial` message (`text_start`, `toolcall_delta`, …, each naming its `contentIndex`),
 * ended by `done` or `error`, which carry the usage as the gateway priced it. pig rebuilds the
 * message from them. An event that does not fit the message so far (a delta for a block that was
 * never started) is a malformed stream, named as such.
 */
import * as v from "valibot";
import { UsageSchema } from "../message-types.ts";
import { parsePartialJson } from "../partial-json.ts";
import type { SseEvent } from "../sse.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import type { AssistantMessage, AssistantMessageEvent, LlmText, LlmThinking, LlmToolCall } from "../types.ts";

const index = v.pipe(v.number(), v.integer(), v.minValue(0));

const RewriteSchema = v.looseObject({});

const PiMessagesEventSchema = v.variant("type", [
  v.looseObject({ type: v.literal("start") }),
  v.looseObject({ type: v.literal("text_start"), contentIndex: index }),
  v.looseObject({ type: v.literal("text_delta"), contentIndex: index, delta: v.string() }),
  v.looseObject({ type: v.literal("text_end"), contentIndex: index, content: v.string(), contentSignature: v.optional(v.string()) }),
  v.looseObject({ type: v.literal("thinking_start"), contentIndex: index }),
  v.looseObject({ type: v.literal("thinking_delta"), contentIndex: index, delta: v.string() }),
  v.looseObject({
    type: v.literal("thinking_end"),
    contentIndex: index,
    content: v.string(),
    contentSignature: v.optional(v.string()),
    redacted: v.optional(v.boolean()),
  }),
  v.looseObject({ type: v.literal("toolcall_start"), contentIndex: index, id: v.string(), toolName: v.string() }),
  v.looseObject({ type: v.literal("toolcall_delta"), contentIndex: index, delta: v.string() }),
  v.looseObject({
    type: v.literal("toolcall_end"),
    contentIndex: index,
    toolCall: v.looseObject({ type: v.literal("toolCall"), id: v.string(), name: v.string(), arguments: v.record(v.string(), v.unknown()) }),
  }),
  v.looseObject({
    type: v.literal("done"),
    reason: v.picklist(["stop", "length", "toolUse"]),
    usage: UsageSchema,
    responseId: v.optional(v.string()),
    providerThinkingLevel: v.optional(v.string()),
    rewrite: v.optional(RewriteSchema),
  }),
  v.looseObject({
    type: v.literal("error"),
    reason: v.picklist(["error", "aborted"]),
    usage: v.optional(UsageSchema),
    errorMessage: v.optional(v.string()),
    responseId: v.optional(v.string()),
    providerThinkingLevel: v.optional(v.string()),
    rewrite: v.optional(RewriteSchema),
  }),
]);
export type PiMessagesEvent = v.InferOutput<typeof PiMessagesEventSchema>;

/** The end of the stream: the message is complete (`done`) or failed (`error`, its message set). */
export type PiMessagesEnd = { type: "done"; reason: "stop" | "length" | "toolUse" } | { type: "error"; reason: "error" | "aborted" };

export class MalformedPiMessagesStream extends Error {
  override name = "MalformedPiMessagesStream";
}

/** One event of the stream, validated; undefined for keep-alives and `[DONE]`. */
export function parsePiMessagesEvent(event: SseEvent, provider: string): PiMessagesEvent | undefined {
  if (event.data === "" || event.data === "[DONE]") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    throw new MalformedPiMessagesStream(`Malformed event stream from ${provider}: not JSON: ${event.data.slice(0, 200)}`);
  }
  const parsed = v.safeParse(PiMessagesEventSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue?.path?.map((item) => String(item.key)).join(".");
    throw new MalformedPiMessagesStream(`Malformed event stream from ${provider}: ${where ? `${where}: ` : ""}${issue?.message ?? "unexpected event"}: ${event.data.slice(0, 200)}`);
  }
  return parsed.output;
}

/** Rebuilds the assistant message from Pi's events; tells the caller how the stream ended. */
export class PiMessagesAssembler {
  private readonly texts = new TextAppender();
  private readonly liveArguments = new StreamingArguments(parsePartialJson);
  private readonly argumentText = new Map<number, string>();

  constructor(
    private readonly output: AssistantMessage,
    private readonly provider: string,
  ) {}

  private block<T extends { type: string }>(contentIndex: number, type: T["type"], event: string): T {
    const block = this.output.content[contentIndex];
    if (block?.type !== type) throw new MalformedPiMessagesStream(`Malformed event stream from ${this.provider}: ${event} for content ${contentIndex}, which is not a started ${type} block`);
    return block as unknown as T;
  }

  private finish(event: Extract<PiMessagesEvent, { type: "done" | "error" }>): void {
    const output = this.output;
    if (event.usage) output.usage = event.usage;
    if (event.responseId !== undefined) output.responseId = event.responseId;
    const extra = output as AssistantMessage & { providerThinkingLevel?: string };
    if (event.providerThinkingLevel !== undefined) extra.providerThinkingLevel = event.providerThinkingLevel;
    // A gateway policy rewrote the request: kept as a diagnostic, as Pi does.
    if (event.rewrite) output.diagnostics = [...(output.diagnostics ?? []), { type: "pi_messages_rewrite", timestamp: Date.now(), details: { ...event.rewrite } }];
  }

  /** The pig event for `event`, if it makes one; `end` is set by a terminal event. */
  apply(event: PiMessagesEvent): { event?: AssistantMessageEvent; end?: PiMessagesEnd } {
    const output = this.output;
    const content = output.content;
    switch (event.type) {
      case "start":
        return {};
      case "text_start":
        content[event.contentIndex] = { type: "text", text: "" };
        return { event: { type: "text_start", contentIndex: event.contentIndex, partial: output } };
      case "text_delta": {
        const block = this.block<LlmText>(event.contentIndex, "text", event.type);
        block.text = this.texts.append(block, block.text, event.delta);
        return { event: { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial: output } };
      }
      case "text_end": {
        const block = this.block<LlmText>(event.contentIndex, "text", event.type);
        block.text = event.content;
        if (event.contentSignature !== undefined) block.textSignature = event.contentSignature;
        return { event: { type: "text_end", contentIndex: event.contentIndex, content: event.content, partial: output } };
      }
      case "thinking_start":
        content[event.contentIndex] = { type: "thinking", thinking: "" };
        return { event: { type: "thinking_start", contentIndex: event.contentIndex, partial: output } };
      case "thinking_delta": {
        const block = this.block<LlmThinking>(event.contentIndex, "thinking", event.type);
        block.thinking = this.texts.append(block, block.thinking, event.delta);
        return { event: { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial: output } };
      }
      case "thinking_end": {
        const block = this.block<LlmThinking>(event.contentIndex, "thinking", event.type);
        block.thinking = event.content;
        if (event.contentSignature !== undefined) block.thinkingSignature = event.contentSignature;
        if (event.redacted !== undefined) block.redacted = event.redacted;
        return { event: { type: "thinking_end", contentIndex: event.contentIndex, content: event.content, partial: output } };
      }
      case "toolcall_start":
        content[event.contentIndex] = { type: "toolCall", id: event.id, name: event.toolName, arguments: {} };
        this.argumentText.set(event.contentIndex, "");
        return { event: { type: "toolcall_start", contentIndex: event.contentIndex, partial: output } };
      case "toolcall_delta": {
        const block = this.block<LlmToolCall>(event.contentIndex, "toolCall", event.type);
        const text = this.texts.append(block, this.argumentText.get(event.contentIndex) ?? "", event.delta);
        this.argumentText.set(event.contentIndex, text);
        block.arguments = this.liveArguments.update(block, text) ?? block.arguments;
        return { event: { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial: output } };
      }
      case "toolcall_end": {
        const block = this.block<LlmToolCall>(event.contentIndex, "toolCall", event.type);
        // The gateway's final call is the truth (its arguments parsed whole on its side).
        Object.assign(block, event.toolCall);
        this.argumentText.delete(event.contentIndex);
        return { event: { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: block, partial: output } };
      }
      case "done":
        this.finish(event);
        output.stopReason = event.reason;
        return { end: { type: "done", reason: event.reason } };
      case "error":
        this.finish(event);
        output.stopReason = event.reason;
        output.errorMessage = event.errorMessage ?? `${this.provider} reported an error without a message`;
        return { end: { type: "error", reason: event.reason } };
    }
  }

  /** Blocks the stream left holes for (a start that never came): a malformed stream. */
  checkWhole(): void {
    const content = this.output.content;
    for (let i = 0; i < content.length; i++) {
      if (content[i] === undefined) throw new MalformedPiMessagesStream(`Malformed event stream from ${this.provider}: content ${i} was never started`);
    }
  }
}
