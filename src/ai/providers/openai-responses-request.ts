/**
 * The request half of the OpenAI Responses API (openai-responses.ts streams the answer): Pi's
 * stored blocks replayed as Responses input items, tools, and the request body and headers.
 *
 * What Pi stores, and this replays: a reasoning item is a thinking block whose
 * `thinkingSignature` is the item as JSON (sent back verbatim, encrypted content included); a
 * message item is a text block whose `textSignature` is `{"v":1,"id":<item id>}`; a function call
 * is a tool call with id `<call_id>|<item id>`. Checked against Pi 0.87.1's recorded requests
 * (test/ai/openai-responses-requests.test.ts).
 */
import { fitOutputToWindow } from "../output-room.ts";
import { sentTools, strictToolSupport } from "../strict-tools.ts";
import { reasoningEffortFor, thinkingEnabled } from "../thinking.ts";
import type { LlmContext, LlmImage, LlmText, Model, StreamOptions, ToolSpec } from "../types.ts";
import {
  addCacheRetention,
  imageUrl,
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

/** Providers whose Responses endpoints take the `<call_id>|<item id>` pairs of one another's tool calls. */
const OPENAI_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);
const AZURE_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set([...OPENAI_TOOL_CALL_PROVIDERS, "azure-openai-responses"]);

/** Which providers' item ids `model` takes, as Pi 0.87.1 decides per API. */
export function toolCallProvidersFor(model: Model): ReadonlySet<string> {
  return model.api === "azure-openai-responses" ? AZURE_TOOL_CALL_PROVIDERS : OPENAI_TOOL_CALL_PROVIDERS;
}

const cleanIdPart = (part: string) => part.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64).replace(/_+$/, "");

/**
 * Makes another model's tool call id acceptable to `model`, as Pi 0.87.1 does: `[a-zA-Z0-9_-]`,
 * ≤ 64 characters. A provider that takes item ids keeps them paired with the call: one from another
 * provider or API becomes `fc_<hash of it>`, any other gets an `fc_` prefix where it lacks one.
 * Elsewhere the whole id is one call id.
 */
function toolCallIdNormalizer(model: Model, providers: ReadonlySet<string>): (id: string, source: { provider: string; api: string }) => string {
  return (id, source) => {
    if (!providers.has(model.provider) || !id.includes("|")) return cleanIdPart(id);
    const [callPart, itemPart] = id.split("|") as [string, string];
    const foreign = source.provider !== model.provider || source.api !== model.api;
    let item = foreign ? `fc_${shortHash(itemPart)}`.slice(0, 64) : cleanIdPart(itemPart);
    if (!item.startsWith("fc_")) item = cleanIdPart(`fc_${item}`);
    return `${cleanIdPart(callPart)}|${item}`;
  };
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
 * Where a tool result's images go: `inline`, inside the result's `output` list with its text, as
 * Pi 0.87.1 sends them; `follow-up`, a user message after the result, as Pi 0.73.1 did.
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
export function convertResponsesInput(
  model: Model,
  context: LlmContext,
  toolResultImages: ToolResultImages = "inline",
  toolCallProviders: ReadonlySet<string> = toolCallProvidersFor(model),
): Json[] {
  const compat = resolveCompat(model);
  const input: Json[] = [];
  const messages = prepareMessages(context.messages, model, toolCallIdNormalizer(model, toolCallProviders));

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
        // A message sent as nothing takes no place in the count the fallback ids use (as in Pi).
        if (parts.length === 0) continue;
        input.push({ role: "user", content: parts });
      }
    } else if (message.role === "assistant") {
      const sameApi = message.provider === model.provider && message.api === model.api;
      const otherModel = sameApi && message.model !== model.id;
      const before = input.length;
      let textBlock = 0;
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
          // Pi's ids for text it did not get one for: `msg_pi_<message>`, then `_<block>` for later blocks.
          const fallback = textBlock === 0 ? `msg_pi_${index}` : `msg_pi_${index}_${textBlock}`;
          textBlock++;
          let id = signature?.id || fallback;
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
          // Item ids must start with `fc_`; another model of this API paired its own with reasoning
          // items this model never saw, so those are left out (another provider's were rehashed above).
          if (itemId?.startsWith("fc_") && !otherModel) item.id = itemId;
          item.call_id = callId;
          item.name = block.name;
          item.arguments = JSON.stringify(block.arguments);
          input.push(item);
        }
      }
      if (input.length === before) continue;
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

/** OpenRouter keeps a session on one upstream by `x-session-id`; OpenAI's headers are `session_id` and `x-client-request-id`. */
function sessionAffinity(model: Model): "openrouter" | "openai" {
  const format = model.compat?.sessionAffinityFormat;
  if (format === "openrouter" || format === "openai") return format;
  return model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai") ? "openrouter" : "openai";
}

/**
 * A model with explicit prompt-cache modes (`compat.supportsExplicitPromptCacheMode`) is told the
 * cache's lifetime in `prompt_cache_options` instead of `prompt_cache_retention`: 30 minutes
 * under `PI_CACHE_RETENTION=long`, the server's default otherwise.
 */
function addPromptCacheOptions(body: Json, model: Model, env: NodeJS.ProcessEnv = process.env): void {
  if (env.PI_CACHE_RETENTION === "long" && model.compat?.supportsLongCacheRetention !== false) body.prompt_cache_options = { ttl: "30m" };
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
  // OpenAI takes cache keys of up to 64 characters.
  if (options.sessionId) body.prompt_cache_key = Array.from(options.sessionId).slice(0, 64).join("");
  if (model.compat?.supportsExplicitPromptCacheMode === true) addPromptCacheOptions(body, model);
  else addCacheRetention(body, model);
  if (model.compat?.supportsStore !== false) body.store = false;
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (maxTokens && model.compat?.supportsMaxOutputTokens !== false) body.max_output_tokens = Math.max(fitOutputToWindow(model, context, maxTokens), 16);
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
  if (options.sessionId && sessionAffinity(model) === "openrouter") session["x-session-id"] = options.sessionId;
  else if (options.sessionId) {
    if (compat.sendSessionIdHeader) session.session_id = options.sessionId;
    session["x-client-request-id"] = options.sessionId;
  }
  return { body, headers: mergeHeaders(model.headers, session, options.headers) };
}
