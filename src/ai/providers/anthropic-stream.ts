/**
 * Reading an Anthropic Messages answer: its server-sent events become Pi's assistant-message
 * events while the message (blocks, usage, stop reason, response id) is built up.
 */
import { parsePartialJson } from "../partial-json.ts";
import type { SseEvent } from "../sse.ts";
import { StreamingArguments, TextAppender } from "../streamed-text.ts";
import { applyCost } from "../types.ts";
import type {
  AssistantMessage,
  AssistantMessageEvent,
  InvalidArguments,
  LlmContext,
  LlmText,
  LlmThinking,
  LlmToolCall,
  Model,
  StopReason,
} from "../types.ts";
import { isPlainObject } from "../../util/plain-object.ts";
import { errorText, nextSseEvent } from "./stream-failure.ts";
import { fromClaudeCodeName } from "./anthropic-oauth.ts";

const MESSAGE_EVENTS = new Set([
  "message_start",
  "message_delta",
  "message_stop",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
]);

/** Upstream's stop reasons; an unknown one fails the answer. */
export function mapStopReason(reason: string): StopReason {
  switch (reason) {
    case "end_turn":
    case "pause_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
      return "length";
    case "tool_use":
      return "toolUse";
    case "refusal":
    case "sensitive":
      return "error";
    default:
      throw new Error(`Unhandled stop reason: ${reason}`);
  }
}

/**
 * JSON that may carry raw control characters or stray backslashes inside strings (seen from
 * some proxies): parsed as is, else after escaping those.
 */
function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const repaired = repairJsonStrings(text);
    if (repaired === text) throw error;
    return JSON.parse(repaired);
  }
}

function repairJsonStrings(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!inString) {
      out += c;
      if (c === '"') inString = true;
      continue;
    }
    if (c === '"') {
      out += c;
      inString = false;
    } else if (c === "\\") {
      const next = text[i + 1];
      if (next !== undefined && next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += text.slice(i, i + 6);
        i += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
        out += c + next;
        i++;
      } else {
        out += "\\\\";
      }
    } else {
      const code = c.charCodeAt(0);
      if (code < 0x20) {
        const named: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
        out += named[c] ?? `\\u${code.toString(16).padStart(4, "0")}`;
      } else {
        out += c;
      }
    }
  }
  return out;
}

/**
 * Final tool arguments: the whole JSON when complete (repaired if need be), else what parses,
 * and whether they were complete.
 */
function parseToolArguments(json: string): { value: Record<string, unknown>; complete: boolean } {
  if (json.trim() === "") return { value: {}, complete: true };
  try {
    const value = parseLenientJson(json);
    if (isPlainObject(value)) return { value, complete: true };
  } catch {
    // incomplete: fall through
  }
  return { value: parsePartialJson(json), complete: false };
}

/** A block while it streams: upstream keeps the event index (and tool JSON) on it until it ends. */
type StreamingBlock = (LlmText | LlmThinking | LlmToolCall) & { index?: number; partialJson?: string };

interface ContentBlockEvent {
  type: string;
  index?: number;
  content_block?: { type?: string; id?: string; name?: string; input?: Record<string, unknown>; data?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; signature?: string; stop_reason?: string | null };
  message?: { id?: string; usage?: AnthropicUsage };
  usage?: AnthropicUsage;
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

function updateTotals(model: Model, output: AssistantMessage): void {
  const u = output.usage;
  u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
  applyCost(model, u);
}

/**
 * Reads `events` (left open for the caller to close) into `output`, yielding the block events;
 * tool calls whose argument JSON is incomplete are added to `invalidArguments`; `onProgress` is
 * told of every event that moves the answer on (not a `ping`, nor a delta without content). Throws on an
 * in-stream `error` event, an event that does not parse, a connection lost mid-stream and a
 * stream that ends before `message_stop`.
 */
export async function* anthropicMessageEvents(
  events: AsyncGenerator<SseEvent>,
  model: Model,
  context: LlmContext,
  output: AssistantMessage,
  oauth: boolean,
  userSignal: AbortSignal | undefined,
  invalidArguments: InvalidArguments[] = [],
  onProgress: () => void = () => {},
): AsyncGenerator<AssistantMessageEvent> {
  const blocks = output.content as StreamingBlock[];
  const texts = new TextAppender();
  const liveArguments = new StreamingArguments(parsePartialJson);
  let sawStart = false;
  let sawStop = false;
  for (;;) {
    const next = await nextSseEvent(events, model.provider, userSignal);
    if (next.done) break;
    const sse = next.value;
    if (sse.event === "error") throw new Error(sse.data);
    if (!MESSAGE_EVENTS.has(sse.event ?? "")) continue;
    let event: ContentBlockEvent;
    try {
      event = parseLenientJson(sse.data) as ContentBlockEvent;
    } catch (error) {
      throw new Error(
        `Could not parse Anthropic SSE event ${sse.event}: ${errorText(error)}; data=${sse.data}; raw=${sse.raw.join("\\n")}`,
      );
    }

    if (event.type !== "content_block_delta" && MESSAGE_EVENTS.has(event.type)) onProgress();
    switch (event.type) {
      case "message_start": {
        sawStart = true;
        if (event.message?.id !== undefined) output.responseId = event.message.id;
        const usage = event.message?.usage;
        output.usage.input = usage?.input_tokens || 0;
        output.usage.output = usage?.output_tokens || 0;
        output.usage.cacheRead = usage?.cache_read_input_tokens || 0;
        output.usage.cacheWrite = usage?.cache_creation_input_tokens || 0;
        updateTotals(model, output);
        break;
      }
      case "message_stop":
        sawStop = true;
        break;
      case "content_block_start": {
        const block = event.content_block;
        let created: StreamingBlock;
        let type: "text_start" | "thinking_start" | "toolcall_start";
        if (block?.type === "text") {
          created = { type: "text", text: "", index: event.index };
          type = "text_start";
        } else if (block?.type === "thinking") {
          created = { type: "thinking", thinking: "", thinkingSignature: "", index: event.index };
          type = "thinking_start";
        } else if (block?.type === "redacted_thinking") {
          created = {
            type: "thinking",
            thinking: "[Reasoning redacted]",
            thinkingSignature: block.data,
            redacted: true,
            index: event.index,
          };
          type = "thinking_start";
        } else if (block?.type === "tool_use") {
          const name = block.name ?? "";
          created = {
            type: "toolCall",
            id: block.id ?? "",
            name: oauth ? fromClaudeCodeName(name, context.tools) : name,
            arguments: block.input ?? {},
            partialJson: "",
            index: event.index,
          };
          type = "toolcall_start";
        } else {
          break; // server tools, citations … are not part of Pi's message
        }
        blocks.push(created);
        yield { type, contentIndex: blocks.length - 1, partial: output };
        break;
      }
      case "content_block_delta": {
        const at = blocks.findIndex((b) => b.index === event.index);
        const block = blocks[at];
        const delta = event.delta;
        if (!block || !delta) break;
        if (delta.text || delta.thinking || delta.partial_json || delta.signature) onProgress();
        if (delta.type === "text_delta" && block.type === "text") {
          const text = delta.text ?? "";
          block.text = texts.append(block, block.text, text);
          yield { type: "text_delta", contentIndex: at, delta: text, partial: output };
        } else if (delta.type === "thinking_delta" && block.type === "thinking") {
          const text = delta.thinking ?? "";
          block.thinking = texts.append(block, block.thinking, text);
          yield { type: "thinking_delta", contentIndex: at, delta: text, partial: output };
        } else if (delta.type === "input_json_delta" && block.type === "toolCall") {
          const json = delta.partial_json ?? "";
          block.partialJson = texts.append(block, block.partialJson ?? "", json);
          block.arguments = liveArguments.update(block, block.partialJson) ?? block.arguments;
          yield { type: "toolcall_delta", contentIndex: at, delta: json, partial: output };
        } else if (delta.type === "signature_delta" && block.type === "thinking") {
          block.thinkingSignature = texts.append(block, block.thinkingSignature || "", delta.signature ?? "");
        }
        break;
      }
      case "content_block_stop": {
        const at = blocks.findIndex((b) => b.index === event.index);
        const block = blocks[at];
        if (!block) break;
        delete block.index;
        if (block.type === "text") {
          yield { type: "text_end", contentIndex: at, content: block.text, partial: output };
        } else if (block.type === "thinking") {
          yield { type: "thinking_end", contentIndex: at, content: block.thinking, partial: output };
        } else {
          // Arguments sent whole at the start (no deltas) stay as they are.
          if (block.partialJson) {
            const parsed = parseToolArguments(block.partialJson);
            block.arguments = parsed.value;
            if (!parsed.complete) invalidArguments.push({ contentIndex: at, text: block.partialJson });
          }
          delete block.partialJson;
          yield { type: "toolcall_end", contentIndex: at, toolCall: block, partial: output };
        }
        break;
      }
      case "message_delta": {
        const reason = event.delta?.stop_reason;
        if (reason) {
          output.rawStopReason = reason;
          output.stopReason = mapStopReason(reason);
        }
        const usage = event.usage;
        if (usage?.input_tokens != null) output.usage.input = usage.input_tokens;
        if (usage?.output_tokens != null) output.usage.output = usage.output_tokens;
        if (usage?.cache_read_input_tokens != null) output.usage.cacheRead = usage.cache_read_input_tokens;
        if (usage?.cache_creation_input_tokens != null) output.usage.cacheWrite = usage.cache_creation_input_tokens;
        updateTotals(model, output);
        break;
      }
    }
  }
  // An event stream with no message at all is as incomplete as one cut before its end.
  if (!sawStop) throw new Error(sawStart ? "Anthropic stream ended without message_stop" : "Anthropic stream ended without any message");
}
