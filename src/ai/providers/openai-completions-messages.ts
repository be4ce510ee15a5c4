/**
 * The `messages` array of an OpenAI Chat Completions request: stored messages prepared for the
 * model, then converted with the per-server differences of `ResolvedCompat`.
 */
import type { LlmAssistantMessage, LlmContext, LlmImage, LlmMessage, LlmText, LlmThinking, LlmToolCall, Model } from "../types.ts";
import { imageUrl, prepareMessages, resolveCompat, sanitizeSurrogates, type ResolvedCompat } from "./openai-shared.ts";
import { beginsWithSame } from "../../util/same-start.ts";

type Json = Record<string, unknown>;

/** Mistral wants tool call ids of exactly 9 characters from [a-zA-Z0-9]. */
function mistralToolId(id: string): string {
  const clean = id.replace(/[^a-zA-Z0-9]/g, "");
  return clean.length >= 9 ? clean.slice(0, 9) : clean + "ABCDEFGHI".slice(0, 9 - clean.length);
}

function toolCallIdNormalizer(model: Model, compat: ResolvedCompat): (id: string) => string {
  return (id) => {
    if (compat.requiresMistralToolIds) return mistralToolId(id);
    // Responses-API ids are "call_id|item_id" (the item id may be hundreds of characters long).
    if (id.includes("|")) return id.split("|")[0]!.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
    if (model.provider === "openai" && id.length > 40) return id.slice(0, 40);
    return id;
  };
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function userParts(model: Model, content: readonly (LlmText | LlmImage)[]): Json[] {
  const parts: Json[] = [];
  for (const item of content) {
    if (item.type === "text") parts.push({ type: "text", text: sanitizeSurrogates(item.text) });
    else if (item.type === "image" && model.input.includes("image")) {
      parts.push({ type: "image_url", image_url: { url: imageUrl(item) } });
    }
  }
  return parts;
}

/** The element of an assistant message; undefined when it has neither content nor tool calls. */
function assistantElement(model: Model, compat: ResolvedCompat, message: LlmAssistantMessage): Json | undefined {
  const assistant: Json = { role: "assistant", content: compat.requiresAssistantAfterToolResult ? "" : null };
  const texts = message.content
    .filter((b): b is LlmText => b.type === "text" && b.text.trim().length > 0)
    .map((b) => sanitizeSurrogates(b.text));
  const joined = texts.join("");
  const thinking = message.content.filter(
    (b): b is LlmThinking => b.type === "thinking" && !b.redacted && b.thinking.trim().length > 0,
  );
  if (thinking.length > 0 && compat.requiresThinkingAsText) {
    const thinkingText = thinking.map((b) => sanitizeSurrogates(b.thinking)).join("\n\n");
    assistant.content = [{ type: "text", text: thinkingText }, ...texts.map((text) => ({ type: "text", text }))];
  } else {
    if (joined.length > 0) assistant.content = joined;
    // A thinking block remembers the delta field it streamed in; replay it there.
    const field = thinking[0]?.thinkingSignature;
    if (field && FIELD_NAME.test(field)) assistant[field] = thinking.map((b) => b.thinking).join("\n");
  }
  const calls = message.content.filter((b): b is LlmToolCall => b.type === "toolCall");
  if (calls.length > 0) {
    assistant.tool_calls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const details = calls.flatMap((call) => {
      if (!call.thoughtSignature) return [];
      try {
        return [JSON.parse(call.thoughtSignature) as unknown];
      } catch {
        return [];
      }
    });
    if (details.length > 0) assistant.reasoning_details = details;
  }
  if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && assistant.reasoning_content === undefined) {
    assistant.reasoning_content = "";
  }
  const content = assistant.content as string | Json[] | null;
  const hasContent = content !== null && content.length > 0;
  if (!hasContent && assistant.tool_calls === undefined) return undefined;
  return assistant;
}

/**
 * The element one message became, kept while its message object lives: a long run's next request
 * converts only the new messages. `key` names the model and compat it was made for.
 */
const madeFor = new WeakMap<object, { key: string; json: Json }>();

/** What an element depends on besides its message: the model (its API, input kinds and reasoning), and the compat. */
function conversionKey(model: Model, compat: ResolvedCompat): string {
  return JSON.stringify([model.api, model.provider, model.id, model.reasoning, model.input, compat]);
}

/**
 * Where the latest reusing conversion stood, for the next to go on from: the prepared messages it
 * read, the elements it gave, and its last resume point, the start of its last step that was not
 * a run of tool results. Everything before that point is final whatever follows (a run of tool
 * results can grow, and its images come after it); the next request that begins with the same
 * messages keeps those elements and converts from that point on.
 */
let latestConversion: { key: string; system: Json | undefined; read: readonly LlmMessage[]; out: Json[]; resume: ResumePoint } | undefined;

interface ResumePoint {
  /** Index of the message the step starts at. */
  index: number;
  /** Elements given before it. */
  elements: number;
  lastRole: string | null;
}

/**
 * The latest system element, given again while the prompt and its role are unchanged: a request
 * that begins with the very elements of the one before has its body written from kept bytes
 * (openai-completions-body.ts), and the system element comes first.
 */
let keptSystem: { role: string; prompt: string; json: Json } | undefined;

function systemElement(role: string, prompt: string): Json {
  if (keptSystem?.role !== role || keptSystem.prompt !== prompt) {
    keptSystem = { role, prompt, json: { role, content: sanitizeSurrogates(prompt) } };
  }
  return keptSystem.json;
}

/**
 * The `messages` array of a Chat Completions request for `context`. `reuse`: elements made for
 * the same message objects on an earlier call may be given again (the same objects), which is
 * right only while nobody changes them afterwards (no payload hook, no cache breakpoints).
 */
export function convertCompletionsMessages(model: Model, context: LlmContext, compat: ResolvedCompat = resolveCompat(model), reuse = false): Json[] {
  const key = reuse ? conversionKey(model, compat) : "";
  const messages = prepareMessages(context.messages, model, toolCallIdNormalizer(model, compat), reuse ? key : undefined);
  /** The element of `message`: the one made before for the same key, or `make`'s (then kept). */
  const element = (message: object, make: () => Json | undefined): Json | undefined => {
    if (!reuse) return make();
    const known = madeFor.get(message);
    if (known?.key === key) return known.json;
    const json = make();
    if (json) madeFor.set(message, { key, json });
    return json;
  };

  let system: Json | undefined;
  if (context.systemPrompt) {
    const role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
    system = reuse ? systemElement(role, context.systemPrompt) : { role, content: sanitizeSurrogates(context.systemPrompt) };
  }
  const known = reuse && latestConversion?.key === key && latestConversion.system === system && beginsWithSame(messages, latestConversion.read) ? latestConversion : undefined;
  const out: Json[] = known ? known.out.slice(0, known.resume.elements) : system ? [system] : [];
  let lastRole: string | null = known ? known.resume.lastRole : null;
  let resume: ResumePoint = known ? known.resume : { index: 0, elements: out.length, lastRole };
  for (let i = resume.index; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "toolResult") resume = { index: i, elements: out.length, lastRole };
    if (compat.requiresAssistantAfterToolResult && lastRole === "toolResult" && message.role === "user") {
      out.push({ role: "assistant", content: "I have processed the tool results." });
    }

    if (message.role === "user") {
      const user = element(message, () => {
        if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
        const parts = userParts(model, message.content);
        return parts.length === 0 ? undefined : { role: "user", content: parts };
      });
      if (!user) continue;
      out.push(user);
    } else if (message.role === "assistant") {
      const assistant = element(message, () => assistantElement(model, compat, message));
      if (!assistant) continue;
      out.push(assistant);
    } else {
      // A run of tool results; their images follow in one extra user message.
      const images: Json[] = [];
      let j = i;
      for (; j < messages.length && messages[j]!.role === "toolResult"; j++) {
        const result = messages[j]!;
        if (result.role !== "toolResult") break;
        const tool = element(result, () => {
          const text = result.content
            .filter((b): b is LlmText => b.type === "text")
            .map((b) => b.text)
            .join("\n");
          const made: Json = {
            role: "tool",
            content: sanitizeSurrogates(text.length > 0 ? text : "(see attached image)"),
            tool_call_id: result.toolCallId,
          };
          if (compat.requiresToolResultName && result.toolName) made.name = result.toolName;
          return made;
        })!;
        out.push(tool);
        if (model.input.includes("image")) {
          for (const block of result.content) {
            if (block.type === "image") images.push({ type: "image_url", image_url: { url: imageUrl(block) } });
          }
        }
      }
      i = j - 1;
      if (images.length > 0) {
        if (compat.requiresAssistantAfterToolResult) {
          out.push({ role: "assistant", content: "I have processed the tool results." });
        }
        out.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images] });
        lastRole = "user";
      } else {
        lastRole = "toolResult";
      }
      continue;
    }
    lastRole = message.role;
  }
  if (reuse) latestConversion = { key, system, read: messages, out: out.slice(), resume };
  return out;
}
