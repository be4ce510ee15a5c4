/**
 * The request half of the OpenAI Responses API (openai-responses.ts streams the answer): Pi's
 * stored blocks replayed as Responses input items, tools, and the request body and headers.
 *
 * What Pi stores, and this replays: a reasoning item is a thinking block whose
 * `thinkingSignature` is the item as JSON (sent back verbatim, encrypted content included); a
 * message item is a text block whose `textSignature` is `{"v":1,"id":<item id>}`; a function call
 * is a tool call with id `<call_id>|<item id>`.
 */
import { fitOutputToWindow } from "../output-room.ts";
import { sentTools, strictToolSupport } from "../strict-tools.ts";
import { reasoningEffortFor, thinkingEnabled } from "../thinking.ts";
import type { LlmContext, LlmImage, LlmText, Model, StreamOptions, ToolSpec } from "../types.ts";
import {
  addCacheRetention,
  imageUrl,
  isSameModel,
  mergeHeaders,
  prepareMessages,
  resolveCompat,
  sanitizeSurrogates,
  shortHash,
  type OpenAIRequest,
} from "./openai-shared.ts";

type Json = Record<string, unknown>;

// ── signatures and ids ──────────────────────────────────────────────────────

type Phase = "commentary" | "final_answer";

export function encodeTextSignature(id: string, phase?: Phase): string {
  return JSON.stringify(phase ? { v: 1, id, phase } : { v: 1, id });
}

/** `{"v":1,"id","phase"?}` as written by Pi, or a legacy plain item id. */
export function parseTextSignature(signature: string | undefined): { id: string; phase?: Phase } | undefined {
  if (!signature) return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
      if (parsed.v === 1 && typeof parsed.id === "string") {
        return parsed.phase === "commentary" || parsed.phase === "final_answer" ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
      }
    } catch {
      // a legacy plain id
    }
  }
  return { id: signature };
}

/** Makes another model's tool call id acceptable here: `[a-zA-Z0-9_-]`, ≤ 64, item ids starting "fc". */
function normalizeForeignToolCallId(id: string): string {
  const clean = (part: string) => part.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64).replace(/_+$/, "");
  const [callPart, itemPart] = id.split("|");
  const call = clean(callPart ?? "") || "call";
  if (itemPart === undefined) return call;
  let item = itemPart.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!item.startsWith("fc")) item = `fc_${item}`;
  return `${call}|${clean(item)}`;
}

// ── request ─────────────────────────────────────────────────────────────────

function userContent(model: Model, content: readonly (LlmText | LlmImage)[]): Json[] {
  const parts: Json[] = [];
  for (const item of content) {
    if (item.type === "text") parts.push({ type: "input_text", text: sanitizeSurrogates(item.text) });
    else if (item.type === "image" && model.input.includes("image")) {
      parts.push({ type: "input_image", detail: "auto", image_url: imageUrl(item) });
    }
  }
  return parts;
}

/**
 * Where a tool result's images go: `follow-up`, a user message after the result (as this API's
 * requests have been compared with Pi's); `inline`, inside the result's `output` list with its
 * text, as Pi 0.87.1 sends them (compared for the Codex endpoint).
 */
export type ToolResultImages = "follow-up" | "inline";

/** A tool result's `output` with its images inline: the text (if any), then the images. */
function inlineToolOutput(text: string, images: readonly LlmImage[]): string | Json[] {
  if (images.length === 0) return sanitizeSurrogates(text.length > 0 ? text : "(no tool output)");
  return [
    ...(text.length > 0 ? [{ type: "input_text", text: sanitizeSurrogates(text) }] : []),
    ...images.map((image) => ({ type: "input_image", detail: "auto", image_url: imageUrl(image) })),
  ];
}

/** The `input` array of a Responses request for `context`. */
export function convertResponsesInput(model: Model, context: LlmContext, toolResultImages: ToolResultImages = "follow-up"): Json[] {
  const compat = resolveCompat(model);
  const input: Json[] = [];
  const messages = prepareMessages(context.messages, model, normalizeForeignToolCallId);

  if (context.systemPrompt) {
    const role = model.reasoning && compat.supportsDeveloperRole !== false ? "developer" : "system";
    input.push({ role, content: sanitizeSurrogates(context.systemPrompt) });
  }

  let index = 0;
  for (const message of messages) {
    if (message.role === "user") {
      if (typeof message.content === "string") {
        input.push({ role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] });
      } else {
        const parts = userContent(model, message.content);
        if (parts.length > 0) input.push({ role: "user", content: parts });
      }
    } else if (message.role === "assistant") {
      const same = isSameModel(message, model);
      for (const block of message.content) {
        if (block.type === "thinking") {
          if (!block.thinkingSignature) continue;
          try {
            input.push(JSON.parse(block.thinkingSignature) as Json);
          } catch {
            // not a reasoning item (e.g. written by another API): nothing to replay
          }
        } else if (block.type === "text") {
          const signature = parseTextSignature(block.textSignature);
          let id = signature?.id ?? `msg_${index}`;
          if (id.length > 64) id = `msg_${shortHash(id)}`;
          const item: Json = {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
            status: "completed",
            id,
          };
          if (signature?.phase) item.phase = signature.phase;
          input.push(item);
        } else if (block.type === "toolCall") {
          const [callId, itemId] = block.id.split("|");
          const item: Json = { type: "function_call" };
          // Another model's item ids are not paired with reasoning items here: leave them out.
          if (itemId && same) item.id = itemId;
          item.call_id = callId;
          item.name = block.name;
          item.arguments = JSON.stringify(block.arguments);
          input.push(item);
        }
      }
    } else {
      const text = message.content
        .filter((b): b is LlmText => b.type === "text")
        .map((b) => b.text)
        .join("\n");
      if (toolResultImages === "inline") {
        const images = model.input.includes("image") ? message.content.filter((b): b is LlmImage => b.type === "image") : [];
        const dropped = images.length === 0 && message.content.some((b) => b.type === "image");
        const output = dropped && text.length === 0 ? "(see attached image)" : inlineToolOutput(text, images);
        input.push({ type: "function_call_output", call_id: message.toolCallId.split("|")[0], output });
        index++;
        continue;
      }
      input.push({
        type: "function_call_output",
        call_id: message.toolCallId.split("|")[0],
        output: sanitizeSurrogates(text.length > 0 ? text : "(see attached image)"),
      });
      const images = model.input.includes("image")
        ? message.content.filter((b): b is LlmImage => b.type === "image")
        : [];
      if (images.length > 0) {
        input.push({
          role: "user",
          content: [
            { type: "input_text", text: "Attached image(s) from tool result:" },
            ...images.map((image) => ({ type: "input_image", detail: "auto", image_url: imageUrl(image) })),
          ],
        });
      }
    }
    index++;
  }
  return input;
}

/** `strict` only for a server said (by `compat`) to take strict tool schemas, as Pi ≥ 0.87 does; strict tools per strict-tools.ts. */
function convertTools(model: Model, tools: readonly ToolSpec[]): Json[] {
  const sent = sentTools(model, "openai-responses", tools);
  const strictMode = strictToolSupport(model, "openai-responses").supported;
  return tools.map((tool, i) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: sent[i]!.parameters,
    ...(strictMode ? { strict: sent[i]!.strict } : {}),
  }));
}

/**
 * Body and extra headers of the Responses request for `context` (the SDK adds Authorization and
 * its own headers). With a session id: `prompt_cache_key`, and the `session_id` /
 * `x-client-request-id` headers. Pure.
 */
export function buildResponsesRequest(model: Model, context: LlmContext, options: StreamOptions): OpenAIRequest {
  const compat = resolveCompat(model);
  const body: Json = {
    model: model.id,
    input: convertResponsesInput(model, context),
    stream: true,
  };
  if (options.sessionId) body.prompt_cache_key = options.sessionId;
  addCacheRetention(body, model);
  if (model.compat?.supportsStore !== false) body.store = false;
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (maxTokens) body.max_output_tokens = Math.max(fitOutputToWindow(model, context, maxTokens), 16);
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (context.tools && context.tools.length > 0) body.tools = convertTools(model, context.tools);
  if (model.reasoning) {
    if (thinkingEnabled(model, options.reasoning)) {
      body.reasoning = { effort: reasoningEffortFor(model, options.reasoning), summary: "auto" };
      body.include = ["reasoning.encrypted_content"];
    } else if (model.provider !== "github-copilot") {
      // Copilot's Responses endpoint takes no effort "none": thinking off sends no reasoning at all, as upstream.
      const off = model.thinkingLevelMap?.off;
      if (off !== null) body.reasoning = { effort: off ?? "none" };
    }
  }

  const session: Record<string, string> = {};
  if (options.sessionId) {
    if (compat.sendSessionIdHeader) session.session_id = options.sessionId;
    session["x-client-request-id"] = options.sessionId;
  }
  return { body, headers: mergeHeaders(model.headers, session, options.headers) };
}
