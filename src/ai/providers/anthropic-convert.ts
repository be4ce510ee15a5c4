/**
 * Message and tool conversion for the Anthropic Messages API: upstream's provider-independent
 * preparation of stored messages, then the `messages` and `tools` arrays of the request.
 */
import { sentTools } from "../strict-tools.ts";
import { closeToolCalls } from "../transform.ts";
import type { LlmImage, LlmMessage, LlmText, LlmThinking, LlmToolCall, Model, ToolSpec } from "../types.ts";
import { toClaudeCodeName } from "./anthropic-oauth.ts";
import { IMAGE_ONLY_RESULT_TEXT, stripLoneSurrogates, TOOL_IMAGE_PLACEHOLDER, USER_IMAGE_PLACEHOLDER, withoutImages } from "./content-text.ts";
import type { AnthropicContentBlock, AnthropicMessageParam, AnthropicTool, CacheControl } from "./anthropic-wire.ts";

export { stripLoneSurrogates } from "./content-text.ts";

/** Anthropic ids match ^[a-zA-Z0-9_-]{1,64}$: other characters become "_", the rest is cut at 64. */
export function normalizeAnthropicToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/**
 * Upstream's provider-independent preparation: images replaced for text-only models; assistant
 * messages of another model lose what only that model can read (thinking becomes text,
 * redacted thinking and signatures go, tool-call ids are normalized, results follow); failed and
 * aborted assistant messages are left out; a tool call left without a result gets an error
 * result "No result provided" before the next assistant or user message (or at the end).
 */
export function prepareMessages(messages: readonly LlmMessage[], model: Model): LlmMessage[] {
  const vision = model.input.includes("image");
  const renamed = new Map<string, string>();
  const transformed: LlmMessage[] = messages.map((message): LlmMessage => {
    if (message.role === "user") {
      if (vision || typeof message.content === "string") return message;
      return { ...message, content: withoutImages(message.content, USER_IMAGE_PLACEHOLDER) };
    }
    if (message.role === "toolResult") {
      const content = vision ? message.content : withoutImages(message.content, TOOL_IMAGE_PLACEHOLDER);
      const id = renamed.get(message.toolCallId);
      if (id !== undefined && id !== message.toolCallId) return { ...message, toolCallId: id, content };
      return content === message.content ? message : { ...message, content };
    }
    const same = message.provider === model.provider && message.api === model.api && message.model === model.id;
    const content = message.content.flatMap((block): (LlmText | LlmThinking | LlmToolCall)[] => {
      if (block.type === "thinking") {
        if (block.redacted) return same ? [block] : [];
        if (same && block.thinkingSignature) return [block];
        if (!block.thinking || block.thinking.trim() === "") return [];
        return same ? [block] : [{ type: "text", text: block.thinking }];
      }
      if (block.type === "text") return same ? [block] : [{ type: "text", text: block.text }];
      if (same) return [block];
      const { thoughtSignature: _dropped, ...call } = block;
      const id = normalizeAnthropicToolCallId(block.id);
      if (id !== block.id) renamed.set(block.id, id);
      return [{ ...call, id }];
    });
    return { ...message, content };
  });

  return closeToolCalls(transformed);
}

const EFFORTS = new Set(["low", "medium", "high", "xhigh", "max"]);

/** The effort an earlier answer of this provider was given, as Pi stores it (`providerThinkingLevel`). */
function answerEffort(message: LlmMessage, model: Model): string | undefined {
  if (message.role !== "assistant" || message.api !== "anthropic-messages" || message.provider !== model.provider) return undefined;
  const level = (message as { providerThinkingLevel?: unknown }).providerThinkingLevel;
  return typeof level === "string" && EFFORTS.has(level) ? level : undefined;
}

function imageBlock(image: LlmImage): AnthropicContentBlock {
  if (image.data === undefined && image.url !== undefined) return { type: "image", source: { type: "url", url: image.url } };
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

/** A tool result's content: the texts joined by "\n", or blocks when there are images. */
function toolResultContent(content: (LlmText | LlmImage)[]): string | AnthropicContentBlock[] {
  if (!content.some((block) => block.type === "image")) {
    return stripLoneSurrogates(content.map((block) => (block as LlmText).text).join("\n"));
  }
  const blocks = content.map((block): AnthropicContentBlock =>
    block.type === "text" ? { type: "text", text: stripLoneSurrogates(block.text) } : imageBlock(block),
  );
  if (!blocks.some((block) => block.type === "text")) blocks.unshift({ type: "text", text: IMAGE_ONLY_RESULT_TEXT });
  return blocks;
}

/**
 * The `messages` array: empty texts (and messages left empty) skipped, thinking replayed with
 * its signature (without one as plain text; redacted as `redacted_thinking`), consecutive tool
 * results merged into one user message, and the last block of a final user message marked for
 * caching.
 */
export function convertAnthropicMessages(
  messages: readonly LlmMessage[],
  model: Model,
  opts: { cacheControl?: CacheControl; oauth?: boolean; allowEmptySignature?: boolean; effortMarkers?: boolean } = {},
): AnthropicMessageParam[] {
  const prepared = prepareMessages(messages, model);
  const out: AnthropicMessageParam[] = [];
  for (let i = 0; i < prepared.length; i++) {
    const message = prepared[i]!;
    if (message.role === "user") {
      if (typeof message.content === "string") {
        if (message.content.trim().length > 0) out.push({ role: "user", content: stripLoneSurrogates(message.content) });
        continue;
      }
      const blocks = message.content
        .map((block): AnthropicContentBlock =>
          block.type === "text" ? { type: "text", text: stripLoneSurrogates(block.text) } : imageBlock(block),
        )
        .filter((block) => block.type !== "text" || block.text.trim().length > 0);
      if (blocks.length > 0) out.push({ role: "user", content: blocks });
    } else if (message.role === "assistant") {
      const blocks: AnthropicContentBlock[] = [];
      for (const block of message.content) {
        if (block.type === "text") {
          if (block.text.trim().length === 0) continue;
          blocks.push({ type: "text", text: stripLoneSurrogates(block.text) });
        } else if (block.type === "thinking") {
          const signed = !!block.thinkingSignature && block.thinkingSignature.trim().length > 0;
          if (block.redacted) {
            blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
          } else if (block.thinking.trim().length === 0 && !signed) {
            continue;
          } else if (!signed) {
            // Unsigned (an aborted answer): plain text, unless the server takes thinking with an empty signature.
            blocks.push(
              opts.allowEmptySignature
                ? { type: "thinking", thinking: stripLoneSurrogates(block.thinking), signature: "" }
                : { type: "text", text: stripLoneSurrogates(block.thinking) },
            );
          } else {
            blocks.push({ type: "thinking", thinking: stripLoneSurrogates(block.thinking), signature: block.thinkingSignature! });
          }
        } else if (block.type === "toolCall") {
          blocks.push({
            type: "tool_use",
            id: block.id,
            name: opts.oauth ? toClaudeCodeName(block.name) : block.name,
            input: block.arguments ?? {},
          });
        }
      }
      if (blocks.length === 0) continue;
      // A model whose effort may change mid-conversation is told the effort each earlier answer had.
      const effort = opts.effortMarkers ? answerEffort(message, model) : undefined;
      if (effort) out.push({ role: "system", content: [], output_config: { effort } });
      out.push({ role: "assistant", content: blocks });
    } else {
      const results: AnthropicContentBlock[] = [];
      let j = i;
      for (; j < prepared.length; j++) {
        const result = prepared[j]!;
        if (result.role !== "toolResult") break;
        results.push({
          type: "tool_result",
          tool_use_id: result.toolCallId,
          content: toolResultContent(result.content),
          is_error: result.isError,
        });
      }
      i = j - 1;
      out.push({ role: "user", content: results });
    }
  }

  const last = out[out.length - 1];
  if (opts.cacheControl && last?.role === "user") {
    if (typeof last.content === "string") {
      last.content = [{ type: "text", text: last.content, cache_control: opts.cacheControl }];
    } else {
      const block = last.content[last.content.length - 1];
      if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
        block.cache_control = opts.cacheControl;
      }
    }
  }
  return out;
}

/**
 * Tools: name, description, eager input streaming, and a schema of `type/properties/required`;
 * a strict tool (strict-tools.ts: the model's compat says `supportsStrictTools`) is marked
 * `strict` and keeps its whole strict schema (`additionalProperties: false` included).
 */
export function convertAnthropicTools(
  model: Model,
  tools: readonly ToolSpec[],
  opts: { eagerInputStreaming?: boolean; cacheControl?: CacheControl; oauth?: boolean } = {},
): AnthropicTool[] {
  const sent = sentTools(model, "anthropic-messages", tools);
  return tools.map((tool, index) => {
    const { parameters, strict } = sent[index]!;
    const schema = { type: "object" as const, properties: parameters.properties ?? {}, required: parameters.required ?? [] };
    const converted: AnthropicTool = {
      name: opts.oauth ? toClaudeCodeName(tool.name) : tool.name,
      description: tool.description,
      ...(opts.eagerInputStreaming ? { eager_input_streaming: true as const } : {}),
      ...(strict ? { strict: true as const } : {}),
      input_schema: strict ? { ...parameters, ...schema } : schema,
    };
    if (opts.cacheControl && index === tools.length - 1) converted.cache_control = opts.cacheControl;
    return converted;
  });
}
