/**
 * Stored messages and tools in Gemini's shape, for both Google APIs: `contents` (turns of parts)
 * and `functionDeclarations`. The rules are upstream Pi 0.87.1's: thinking and thought signatures
 * go back only to the model that wrote them, Gemini 3 and later get tool-call ids, tool results
 * become `functionResponse` parts (images inside them from Gemini 3 on, else in a user turn of
 * their own), and consecutive tool results share one user turn.
 *
 * The two APIs differ only in how their clients order some keys (`functionCall`, `inlineData`);
 * `dialect` picks the order, so bodies serialise exactly as Pi's do.
 */
import { geminiMajorVersion } from "../gemini-version.ts";
import { sentTools } from "../strict-tools.ts";
import { closeToolCalls } from "../transform.ts";
import type { LlmImage, LlmMessage, LlmText, LlmThinking, LlmToolCall, Model, ToolSpec } from "../types.ts";
import { IMAGE_ONLY_RESULT_TEXT, stripLoneSurrogates, TOOL_IMAGE_PLACEHOLDER, USER_IMAGE_PLACEHOLDER, withoutImages } from "./content-text.ts";
import type { GoogleContent, GoogleFunctionDeclaration, GoogleInlineData, GooglePart } from "./google-wire.ts";

export { stripLoneSurrogates } from "./content-text.ts";

export type GoogleDialect = "gemini" | "vertex";

// Signatures are bytes on the wire (base64); anything else would fail the whole request.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Models that need the call id echoed in `functionCall` and `functionResponse`. */
export function requiresToolCallId(modelId: string): boolean {
  const major = geminiMajorVersion(modelId);
  return modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-") || (major !== undefined && major >= 3);
}

/** Gemini 3 and later (and non-Gemini models) take images inside a `functionResponse`. */
function takesImagesInFunctionResponse(modelId: string): boolean {
  const major = geminiMajorVersion(modelId);
  return major === undefined || major >= 3;
}

function validSignature(same: boolean, signature: string | undefined): string | undefined {
  if (!same || !signature || signature.length % 4 !== 0 || !BASE64.test(signature)) return undefined;
  return signature;
}

/**
 * Upstream's preparation before conversion: images replaced for text-only models; another
 * model's assistant messages lose what only that model reads (thinking becomes text, redacted
 * thinking and signatures go, ids are made acceptable where Gemini needs them); failed answers
 * left out and unanswered calls closed.
 */
function prepare(messages: readonly LlmMessage[], model: Model): LlmMessage[] {
  const vision = model.input.includes("image");
  const needsIds = requiresToolCallId(model.id);
  const renamed = new Map<string, string>();
  const out = messages.map((message): LlmMessage => {
    if (message.role === "user") {
      if (vision || typeof message.content === "string") return message;
      return { ...message, content: withoutImages(message.content, USER_IMAGE_PLACEHOLDER) };
    }
    if (message.role === "toolResult") {
      const content = vision ? message.content : withoutImages(message.content, TOOL_IMAGE_PLACEHOLDER);
      const id = renamed.get(message.toolCallId) ?? message.toolCallId;
      return id === message.toolCallId && content === message.content ? message : { ...message, toolCallId: id, content };
    }
    const same = message.provider === model.provider && message.api === model.api && message.model === model.id;
    if (same) return message;
    const content = message.content.flatMap((block): (LlmText | LlmThinking | LlmToolCall)[] => {
      if (block.type === "thinking") {
        if (block.redacted || !block.thinking || block.thinking.trim() === "") return [];
        return [{ type: "text", text: block.thinking }];
      }
      if (block.type === "text") return [{ type: "text", text: block.text }];
      const { thoughtSignature: _dropped, ...call } = block;
      if (!needsIds) return [call];
      const id = block.id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
      if (id !== block.id) renamed.set(block.id, id);
      return [{ ...call, id }];
    });
    return { ...message, content };
  });
  return closeToolCalls(out);
}

function inlineData(image: LlmImage, dialect: GoogleDialect): GoogleInlineData {
  return dialect === "gemini"
    ? ({ data: image.data, mimeType: image.mimeType } as GoogleInlineData)
    : { mimeType: image.mimeType, data: image.data };
}

function functionCallPart(block: LlmToolCall, model: Model, dialect: GoogleDialect, signature: string | undefined): GooglePart {
  const args = block.arguments ?? {};
  const withId = requiresToolCallId(model.id);
  const call =
    dialect === "gemini"
      ? { args, ...(withId ? { id: block.id } : {}), name: block.name }
      : { name: block.name, args, ...(withId ? { id: block.id } : {}) };
  return { functionCall: call, ...(signature ? { thoughtSignature: signature } : {}) };
}

function assistantParts(message: Extract<LlmMessage, { role: "assistant" }>, model: Model, dialect: GoogleDialect): GooglePart[] {
  // Signatures and thinking only mean something to the model that wrote them.
  const same = message.provider === model.provider && message.model === model.id;
  const parts: GooglePart[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      const signature = validSignature(same, block.textSignature);
      // An empty text that carries a signature is echoed: dropping it breaks Gemini's reasoning chain.
      if ((!block.text || block.text.trim() === "") && !signature) continue;
      parts.push({ text: stripLoneSurrogates(block.text), ...(signature ? { thoughtSignature: signature } : {}) });
    } else if (block.type === "thinking") {
      if (same) {
        const signature = validSignature(same, block.thinkingSignature);
        if ((!block.thinking || block.thinking.trim() === "") && !signature) continue;
        parts.push({ text: stripLoneSurrogates(block.thinking), thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
      } else if (block.thinking && block.thinking.trim() !== "") {
        parts.push({ text: stripLoneSurrogates(block.thinking) });
      }
    } else {
      parts.push(functionCallPart(block, model, dialect, validSignature(same, block.thoughtSignature)));
    }
  }
  return parts;
}

function toolResultParts(
  message: Extract<LlmMessage, { role: "toolResult" }>,
  model: Model,
  dialect: GoogleDialect,
): { response: GooglePart; separateImages?: GooglePart[] } {
  const text = message.content
    .filter((block): block is LlmText => block.type === "text")
    .map((block) => block.text)
    .join("\n");
  const images = model.input.includes("image") ? message.content.filter((block): block is LlmImage => block.type === "image") : [];
  const value = text.length > 0 ? stripLoneSurrogates(text) : images.length > 0 ? IMAGE_ONLY_RESULT_TEXT : "";
  const imageParts = images.map((image) => ({ inlineData: inlineData(image, dialect) }));
  const nested = images.length > 0 && takesImagesInFunctionResponse(model.id);
  const response: GooglePart = {
    functionResponse: {
      name: message.toolName,
      response: message.isError ? { error: value } : { output: value },
      ...(nested ? { parts: imageParts } : {}),
      ...(requiresToolCallId(model.id) ? { id: message.toolCallId } : {}),
    },
  };
  if (images.length > 0 && !nested) return { response, separateImages: [{ text: "Tool result image:" }, ...imageParts] };
  return { response };
}

/** The `contents` of a request for `model`. */
export function convertGoogleMessages(messages: readonly LlmMessage[], model: Model, dialect: GoogleDialect): GoogleContent[] {
  const contents: GoogleContent[] = [];
  for (const message of prepare(messages, model)) {
    if (message.role === "user") {
      if (typeof message.content === "string") {
        contents.push({ parts: [{ text: stripLoneSurrogates(message.content) }], role: "user" });
        continue;
      }
      const parts = message.content.map((block): GooglePart =>
        block.type === "text" ? { text: stripLoneSurrogates(block.text) } : { inlineData: inlineData(block, dialect) },
      );
      if (parts.length > 0) contents.push({ parts, role: "user" });
    } else if (message.role === "assistant") {
      const parts = assistantParts(message, model, dialect);
      if (parts.length > 0) contents.push({ parts, role: "model" });
    } else {
      const { response, separateImages } = toolResultParts(message, model, dialect);
      // All results of one turn go in one user turn (some Google endpoints insist).
      const last = contents[contents.length - 1];
      if (last?.role === "user" && last.parts.some((part) => part.functionResponse)) last.parts.push(response);
      else contents.push({ parts: [response], role: "user" });
      if (separateImages) contents.push({ parts: separateImages, role: "user" });
    }
  }
  return contents;
}

/**
 * The tool list (one entry holding every declaration, the schema as full JSON Schema, in strict
 * form for a strict tool) and the function-calling mode: `VALIDATED` when any tool is strict,
 * which makes Gemini hold calls to their schemas; otherwise the server's default (no mode).
 */
export function convertGoogleTools(
  model: Model,
  tools: readonly ToolSpec[],
  dialect: GoogleDialect,
): { tools: { functionDeclarations: GoogleFunctionDeclaration[] }[]; mode?: "VALIDATED" } | undefined {
  if (tools.length === 0) return undefined;
  const sent = sentTools(model, dialect === "gemini" ? "google-generative-ai" : "google-vertex", tools);
  const functionDeclarations = tools.map((tool, i) => ({ name: tool.name, description: tool.description, parametersJsonSchema: sent[i]!.parameters }));
  return { tools: [{ functionDeclarations }], ...(sent.some((tool) => tool.strict) ? { mode: "VALIDATED" as const } : {}) };
}
