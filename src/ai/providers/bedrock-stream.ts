/**
 * Reading a Bedrock ConverseStream answer: its event-stream messages become Pi's assistant-message
 * events while the message is built up, as Pi 0.87.1 builds it. Text and reasoning blocks have no
 * start event (the first delta opens them); tool use starts with `contentBlockStart`. Reasoning
 * signatures and encrypted (`redactedContent`) reasoning are kept in `thinkingSignature`.
 * An `exception` message ends the answer with `<Kind>: <message>` (the wording Pi's retry and
 * overflow rules read); every payload is checked against its schema.
 */
import * as v from "valibot";
import { parseFinalArguments, parsePartialJson } from "../partial-json.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import { applyCost, type AssistantMessage, type AssistantMessageEvent, type InvalidArguments, type LlmThinking, type LlmToolCall, type Model, type StopReason } from "../types.ts";
import type { EventStreamMessage } from "./aws-eventstream.ts";

const Index = v.pipe(v.number(), v.integer(), v.minValue(0));
const Count = v.optional(v.nullable(v.number()));

const MessageStart = v.object({ role: v.string() });
const BlockStart = v.object({
  contentBlockIndex: Index,
  start: v.optional(v.object({ toolUse: v.optional(v.object({ toolUseId: v.optional(v.string()), name: v.optional(v.string()) })) })),
});
const BlockDelta = v.object({
  contentBlockIndex: Index,
  delta: v.object({
    text: v.optional(v.string()),
    toolUse: v.optional(v.object({ input: v.optional(v.string()) })),
    reasoningContent: v.optional(
      v.object({ text: v.optional(v.string()), signature: v.optional(v.string()), redactedContent: v.optional(v.string()) }),
    ),
  }),
});
const BlockStop = v.object({ contentBlockIndex: Index });
const MessageStop = v.object({ stopReason: v.string() });
const Metadata = v.object({
  usage: v.optional(
    v.object({
      inputTokens: Count,
      outputTokens: Count,
      totalTokens: Count,
      cacheReadInputTokens: Count,
      cacheWriteInputTokens: Count,
    }),
  ),
});
const ExceptionBody = v.object({ message: v.optional(v.string()), Message: v.optional(v.string()) });

/** Pi's words for Bedrock's exception kinds (its retry rules match "server error", "service unavailable"). */
export const EXCEPTION_PREFIXES: Record<string, string> = {
  InternalServerException: "Internal server error",
  ModelStreamErrorException: "Model stream error",
  ValidationException: "Validation error",
  ThrottlingException: "Throttling error",
  ServiceUnavailableException: "Service unavailable",
};

export class BedrockException extends Error {}

/** `throttlingException` (a stream member) or `ThrottlingException` (an HTTP error type) → its prefix. */
export function exceptionText(kind: string, message: string): string {
  const name = kind.charAt(0).toUpperCase() + kind.slice(1);
  const hint = /data retention mode/i.test(message)
    ? " See https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html for supported data retention modes."
    : "";
  return `${EXCEPTION_PREFIXES[name] ?? name}: ${message}${hint}`;
}

export function mapStopReason(reason: string): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return { stopReason: "stop" };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { stopReason: "length" };
    case "tool_use":
      return { stopReason: "toolUse" };
    default:
      return { stopReason: "error", errorMessage: `Provider stopped with: ${reason}` };
  }
}

const utf8 = new TextDecoder();

function parsePayload<T extends v.GenericSchema>(schema: T, message: EventStreamMessage, type: string): v.InferOutput<T> {
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(message.payload));
  } catch {
    throw new Error(`Bedrock sent a ${type} event that is not JSON`);
  }
  const result = v.safeParse(schema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((item) => String(item.key)).join(".") ?? "(payload)";
    throw new Error(`Bedrock sent a malformed ${type} event: ${path}: ${issue.message}`);
  }
  return result.output;
}

type StreamingBlock = (AssistantMessage["content"][number]) & { streamIndex?: number; partialJson?: string };

/**
 * Turns the event-stream messages into events on `output` (which ends with the stop reason and
 * usage the answer gave). Throws a `BedrockException` for an exception message and an Error for
 * anything malformed; the caller turns both into the final `error` event.
 */
export async function* bedrockMessageEvents(
  messages: AsyncIterable<EventStreamMessage>,
  model: Model,
  output: AssistantMessage,
  invalidArguments: InvalidArguments[],
  onProgress: () => void,
): AsyncGenerator<AssistantMessageEvent> {
  const blocks = output.content as StreamingBlock[];
  const texts = new TextAppender();
  const liveArguments = new StreamingArguments(parsePartialJson);
  const find = (index: number) => blocks.findIndex((block) => block.streamIndex === index);

  for await (const message of messages) {
    const kind = message.headers[":message-type"];
    if (kind === "exception") {
      const type = String(message.headers[":exception-type"] ?? "UnknownException");
      let text = utf8.decode(message.payload);
      try {
        const body = v.parse(ExceptionBody, JSON.parse(text));
        text = body.message ?? body.Message ?? text;
      } catch {
        // Not the usual JSON body: its text is the message.
      }
      throw new BedrockException(exceptionText(type, text));
    }
    if (kind === "error") {
      const code = String(message.headers[":error-code"] ?? "UnknownError");
      throw new BedrockException(`${code}: ${String(message.headers[":error-message"] ?? "")}`);
    }
    const type = String(message.headers[":event-type"] ?? "");
    onProgress();
    if (type === "messageStart") {
      const start = parsePayload(MessageStart, message, type);
      if (start.role !== "assistant") throw new Error(`Bedrock started a ${start.role} message instead of the assistant's`);
      yield { type: "start", partial: output };
    } else if (type === "contentBlockStart") {
      const event = parsePayload(BlockStart, message, type);
      const toolUse = event.start?.toolUse;
      if (!toolUse) continue;
      const block: LlmToolCall & StreamingBlock = {
        type: "toolCall",
        id: toolUse.toolUseId ?? "",
        name: toolUse.name ?? "",
        arguments: {},
        partialJson: "",
        streamIndex: event.contentBlockIndex,
      };
      blocks.push(block);
      yield { type: "toolcall_start", contentIndex: blocks.length - 1, partial: output };
    } else if (type === "contentBlockDelta") {
      const { contentBlockIndex, delta } = parsePayload(BlockDelta, message, type);
      let at = find(contentBlockIndex);
      if (delta.text !== undefined) {
        if (at < 0) {
          blocks.push({ type: "text", text: "", streamIndex: contentBlockIndex });
          at = blocks.length - 1;
          yield { type: "text_start", contentIndex: at, partial: output };
        }
        const block = blocks[at]!;
        if (block.type !== "text") continue;
        block.text = texts.append(block, block.text, delta.text);
        yield { type: "text_delta", contentIndex: at, delta: delta.text, partial: output };
      } else if (delta.toolUse) {
        const block = blocks[at];
        if (block?.type !== "toolCall") continue;
        const piece = delta.toolUse.input ?? "";
        block.partialJson = texts.append(block, block.partialJson ?? "", piece);
        const shown = liveArguments.update(block, block.partialJson);
        if (shown) block.arguments = shown;
        yield { type: "toolcall_delta", contentIndex: at, delta: piece, partial: output };
      } else if (delta.reasoningContent) {
        if (at < 0) {
          blocks.push({ type: "thinking", thinking: "", thinkingSignature: "", streamIndex: contentBlockIndex });
          at = blocks.length - 1;
          yield { type: "thinking_start", contentIndex: at, partial: output };
        }
        const block = blocks[at]!;
        if (block.type !== "thinking") continue;
        const reasoning = delta.reasoningContent;
        if (reasoning.text) {
          block.thinking = texts.append(block, block.thinking, reasoning.text);
          yield { type: "thinking_delta", contentIndex: at, delta: reasoning.text, partial: output };
        }
        if (reasoning.signature && !block.redacted) block.thinkingSignature = (block.thinkingSignature ?? "") + reasoning.signature;
        if (reasoning.redactedContent) yield* redactedPiece(block, at, reasoning.redactedContent, output);
      }
    } else if (type === "contentBlockStop") {
      const { contentBlockIndex } = parsePayload(BlockStop, message, type);
      const at = find(contentBlockIndex);
      const block = blocks[at];
      if (!block) continue;
      delete block.streamIndex;
      if (block.type === "text") yield { type: "text_end", contentIndex: at, content: block.text, partial: output };
      else if (block.type === "thinking") yield { type: "thinking_end", contentIndex: at, content: block.thinking, partial: output };
      else if (block.type === "toolCall") {
        const parsed = parseFinalArguments(block.partialJson ?? "");
        if (!parsed.complete) invalidArguments.push({ contentIndex: at, text: block.partialJson ?? "" });
        block.arguments = parsed.value;
        delete block.partialJson;
        yield { type: "toolcall_end", contentIndex: at, toolCall: block, partial: output };
      }
    } else if (type === "messageStop") {
      const { stopReason } = parsePayload(MessageStop, message, type);
      const mapped = mapStopReason(stopReason);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
    } else if (type === "metadata") {
      const usage = parsePayload(Metadata, message, type).usage;
      if (usage) {
        output.usage.input = usage.inputTokens ?? 0;
        output.usage.output = usage.outputTokens ?? 0;
        output.usage.cacheRead = usage.cacheReadInputTokens ?? 0;
        output.usage.cacheWrite = usage.cacheWriteInputTokens ?? 0;
        output.usage.totalTokens = usage.totalTokens || output.usage.input + output.usage.output;
        applyCost(model, output.usage);
      }
    }
    // Other events (a future kind) carry nothing pig shows.
  }
}

/** Encrypted reasoning (non-Claude models): stored whole as base64, shown as a placeholder. */
function* redactedPiece(block: LlmThinking, at: number, piece: string, output: AssistantMessage): Generator<AssistantMessageEvent> {
  if (!block.redacted) {
    block.redacted = true;
    block.thinkingSignature = "";
    block.thinking += REDACTED_PLACEHOLDER;
    yield { type: "thinking_delta", contentIndex: at, delta: REDACTED_PLACEHOLDER, partial: output };
  }
  // The JSON carries each piece as base64; whole bytes are joined, then encoded once.
  const joined = Buffer.concat([Buffer.from(block.thinkingSignature ?? "", "base64"), Buffer.from(piece, "base64")]);
  block.thinkingSignature = joined.toString("base64");
}

const REDACTED_PLACEHOLDER = "[Reasoning redacted]";
