/**
 * The body of a Bedrock ConverseStream request, as Pi 0.87.1 (through the AWS SDK) sends it:
 * `messages, system, inferenceConfig, toolConfig, additionalModelRequestFields`, members in the
 * SDK's order (required ones first: `toolSpec` is `name, inputSchema, description, strict`, an
 * image `format, source`), image bytes as base64. Strict tools (strict-tools.ts) where the model's
 * compat says `supportsStrictMode`.
 *
 * Claude models get the extras Pi gives them: prompt-cache points after the system prompt and
 * after a final user message (Claude 3.5 Haiku, 3.7 Sonnet, 4.x and 5; "long" retention adds
 * `ttl: "1h"`), thinking in `additionalModelRequestFields` (adaptive with an effort for Opus 4.6+,
 * Sonnet 4.6+ and Claude 5, else a token budget and the interleaved-thinking beta), replayed
 * reasoning with its signature. Other models get plain reasoning text and no cache points.
 */
import { fitOutputToWindow } from "../output-room.ts";
import { sentTools } from "../strict-tools.ts";
import type { LlmContext, LlmImage, LlmText, Model, StreamOptions, ThinkingLevel, ToolSpec } from "../types.ts";
import { prepareMessages, stripLoneSurrogates } from "./anthropic-convert.ts";
import { DEFAULT_THINKING_BUDGETS, INTERLEAVED_THINKING_BETA, type CacheRetention } from "./anthropic-request.ts";

type Json = Record<string, unknown>;

export interface BedrockStreamOptions extends StreamOptions {
  /** Prompt caching: "short" (default; "long" when PI_CACHE_RETENTION=long), "long" or "none". */
  cacheRetention?: CacheRetention;
  /** Send the interleaved-thinking beta with budget thinking (default true, as upstream). */
  interleavedThinking?: boolean;
  thinkingDisplay?: "summarized" | "omitted";
  /** The environment to read (AWS_*, PI_CACHE_RETENTION); process.env when absent. */
  env?: Record<string, string | undefined>;
}

export interface BedrockBody {
  messages: Json[];
  system?: Json[];
  inferenceConfig: { maxTokens?: number; temperature?: number };
  toolConfig?: { tools: Json[] };
  additionalModelRequestFields?: Json;
}

const EMPTY_TEXT = "<empty>";
const MIN_ANSWER_TOKENS = 1024;

/** Model id and name, lower-cased, also with separators folded to "-" (inference-profile ARNs carry no model name). */
function nameCandidates(model: Pick<Model, "id" | "name">): string[] {
  return [model.id, model.name].filter(Boolean).flatMap((value) => {
    const lower = value.toLowerCase();
    return [lower, lower.replace(/[\s_.:]+/g, "-")];
  });
}

export function isClaudeModel(model: Pick<Model, "id" | "name">): boolean {
  const id = model.id.toLowerCase();
  const name = (model.name ?? "").toLowerCase();
  return /anthropic[./]claude/.test(id) || name.includes("claude");
}

export function supportsAdaptiveThinking(model: Pick<Model, "id" | "name">): boolean {
  return nameCandidates(model).some((s) => /opus-4-[678]|opus-5|sonnet-4-6|sonnet-5|fable-5/.test(s));
}

function supportsNativeXhigh(model: Pick<Model, "id" | "name">): boolean {
  return nameCandidates(model).some((s) => /opus-4-[78]|opus-5|sonnet-5|fable-5/.test(s));
}

export function supportsPromptCaching(model: Pick<Model, "id" | "name">, env: Record<string, string | undefined>): boolean {
  const candidates = nameCandidates(model);
  // An application inference profile's ARN names no model: AWS_BEDROCK_FORCE_CACHE=1 says it is a Claude one.
  if (!candidates.some((s) => s.includes("claude"))) return env.AWS_BEDROCK_FORCE_CACHE === "1";
  return candidates.some((s) => /fable-5|opus-5|sonnet-5|-4-|claude-3-7-sonnet|claude-3-5-haiku/.test(s));
}

function adaptiveEffort(model: Model, level: ThinkingLevel): string {
  if (level === "xhigh" && supportsNativeXhigh(model)) return "xhigh";
  const mapped = model.thinkingLevelMap?.[level];
  if (typeof mapped === "string") return mapped;
  if (level === "minimal" || level === "low") return "low";
  return level === "medium" ? "medium" : "high";
}

function isGovCloud(model: Model, region: string): boolean {
  const id = model.id.toLowerCase();
  return region.toLowerCase().startsWith("us-gov-") || id.startsWith("us-gov.") || id.startsWith("arn:aws-us-gov:");
}

function cacheRetention(options: BedrockStreamOptions, env: Record<string, string | undefined>): CacheRetention {
  return options.cacheRetention ?? (env.PI_CACHE_RETENTION === "long" ? "long" : "short");
}

function cachePoint(retention: CacheRetention): Json {
  return { cachePoint: { type: "default", ...(retention === "long" ? { ttl: "1h" } : {}) } };
}

function textBlock(text: string): Json | undefined {
  const clean = stripLoneSurrogates(text);
  return clean.trim().length === 0 ? undefined : { text: clean };
}

const IMAGE_FORMATS: Record<string, string> = { "image/jpeg": "jpeg", "image/jpg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp" };

function imageBlock(image: LlmImage): Json {
  const format = IMAGE_FORMATS[image.mimeType];
  if (!format) throw new Error(`Bedrock takes jpeg, png, gif and webp images, not ${image.mimeType}`);
  // The SDK decodes the stored base64 and encodes it again: the same text, normalised.
  return { image: { format, source: { bytes: Buffer.from(image.data ?? "", "base64").toString("base64") } } };
}

function contentBlocks(content: (LlmText | LlmImage)[]): Json[] {
  const out: Json[] = [];
  for (const block of content) {
    if (block.type === "image") out.push(imageBlock(block));
    else {
      const text = textBlock(block.text);
      if (text) out.push(text);
    }
  }
  if (out.length === 0) out.push({ text: EMPTY_TEXT });
  return out;
}

/** Object keys Bedrock's document type cannot hold (empty ones) are dropped, all the way down. */
function bedrockDocument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bedrockDocument);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([key]) => key.length > 0).map(([key, v]) => [key, bedrockDocument(v)]));
  }
  return value;
}

export function convertBedrockMessages(context: LlmContext, model: Model, retention: CacheRetention, env: Record<string, string | undefined>): Json[] {
  const claude = isClaudeModel(model);
  const messages = prepareMessages(context.messages, model);
  const out: Json[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const content = typeof message.content === "string" ? [textBlock(message.content) ?? { text: EMPTY_TEXT }] : contentBlocks(message.content);
      out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const content: Json[] = [];
      for (const block of message.content) {
        if (block.type === "text") {
          const text = textBlock(block.text);
          if (text) content.push(text);
        } else if (block.type === "toolCall") {
          content.push({ toolUse: { toolUseId: block.id, name: block.name, input: bedrockDocument(block.arguments ?? {}) } });
        } else if (block.redacted) {
          // Encrypted reasoning goes back as it came (stored as base64).
          const redacted = Buffer.from(block.thinkingSignature ?? "", "base64").toString("base64");
          if (redacted) content.push({ reasoningContent: { redactedContent: redacted } });
        } else {
          const thinking = stripLoneSurrogates(block.thinking);
          if (thinking.trim().length === 0) continue;
          // Only Claude takes a signature; Claude rejects reasoning without one, so that becomes text.
          if (!claude) content.push({ reasoningContent: { reasoningText: { text: thinking } } });
          else if (!block.thinkingSignature?.trim()) content.push({ text: thinking });
          else content.push({ reasoningContent: { reasoningText: { text: thinking, signature: block.thinkingSignature } } });
        }
      }
      if (content.length > 0) out.push({ role: "assistant", content });
    } else {
      // Bedrock wants all results of one turn in one user message.
      const results: Json[] = [];
      for (; i < messages.length; i++) {
        const result = messages[i]!;
        if (result.role !== "toolResult") break;
        results.push({ toolResult: { toolUseId: result.toolCallId, content: contentBlocks(result.content), status: result.isError ? "error" : "success" } });
      }
      i -= 1;
      out.push({ role: "user", content: results });
    }
  }
  const last = out[out.length - 1];
  if (retention !== "none" && supportsPromptCaching(model, env) && last?.role === "user") (last.content as Json[]).push(cachePoint(retention));
  return out;
}

/** Tools in the SDK's key order; a strict one (strict-tools.ts) with its strict schema and `strict: true`. */
function convertTools(model: Model, tools: readonly ToolSpec[]): Json[] {
  const sent = sentTools(model, "bedrock-converse-stream", tools);
  return tools.map((tool, i) => {
    const { parameters, strict } = sent[i]!;
    return { toolSpec: { name: tool.name, inputSchema: { json: parameters }, description: tool.description, ...(strict ? { strict: true } : {}) } };
  });
}

/** Output cap and thinking fields, as Pi's streamSimple computes them. */
function thinkingAndTokens(model: Model, context: LlmContext, options: BedrockStreamOptions, region: string): { maxTokens: number; fields?: Json } {
  const base = fitOutputToWindow(model, context, options.maxTokens ?? model.maxTokens);
  const level = options.reasoning && options.reasoning !== "off" ? options.reasoning : undefined;
  if (!level || !model.reasoning || !isClaudeModel(model)) return { maxTokens: base };
  const display = isGovCloud(model, region) ? undefined : (options.thinkingDisplay ?? "summarized");
  const withDisplay = display !== undefined ? { display } : {};
  if (supportsAdaptiveThinking(model)) {
    return { maxTokens: base, fields: { thinking: { type: "adaptive", ...withDisplay }, output_config: { effort: adaptiveEffort(model, level) } } };
  }
  const clamped = level === "xhigh" || level === "max" ? "high" : level;
  let budget = { ...DEFAULT_THINKING_BUDGETS, ...options.thinkingBudgets }[clamped];
  let maxTokens = Math.min(base + budget, model.maxTokens);
  if (maxTokens <= budget) budget = Math.max(0, maxTokens - MIN_ANSWER_TOKENS);
  maxTokens = fitOutputToWindow(model, context, maxTokens);
  budget = Math.min(budget, Math.max(0, maxTokens - MIN_ANSWER_TOKENS));
  const fields: Json = { thinking: { type: "enabled", budget_tokens: budget, ...withDisplay } };
  if (options.interleavedThinking ?? true) fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
  return { maxTokens, fields };
}

/** The request body for `context` (`region` only decides whether GovCloud's narrower schema applies). */
export function buildBedrockBody(model: Model, context: LlmContext, options: BedrockStreamOptions, region: string): BedrockBody {
  const env = options.env ?? process.env;
  const retention = cacheRetention(options, env);
  const { maxTokens, fields } = thinkingAndTokens(model, context, options, region);
  let system: Json[] | undefined;
  if (context.systemPrompt) {
    system = [{ text: stripLoneSurrogates(context.systemPrompt) }];
    if (retention !== "none" && supportsPromptCaching(model, env)) system.push(cachePoint(retention));
  }
  // Keys in the order the AWS SDK writes them.
  const body: BedrockBody = {
    messages: convertBedrockMessages(context, model, retention, env),
    ...(system ? { system } : {}),
    inferenceConfig: { maxTokens, ...(options.temperature !== undefined ? { temperature: options.temperature } : {}) },
  };
  if (context.tools && context.tools.length > 0) body.toolConfig = { tools: convertTools(model, context.tools) };
  if (fields) body.additionalModelRequestFields = fields;
  return body;
}
