/**
 * The request body both Google APIs send (`generateContent` / `streamGenerateContent`), as Pi
 * 0.87.1's Gemini client serialises it: keys in the order `contents, systemInstruction, tools,
 * toolConfig, generationConfig`, the system prompt as a user-role content, the output cap kept
 * inside the room the context window leaves.
 *
 * Thinking: Gemini 3 Pro/Flash (and `gemini-flash-latest`, `gemini-flash-lite-latest`, Gemma 4)
 * take a level (`thinkingLevel: "LOW"`), earlier models a token budget (`thinkingBudget`,
 * -1 for "as the model sees fit"); both with `includeThoughts`. A reasoning model with thinking
 * off gets `thinkingBudget: 0`, or for level models the lowest level it offers.
 *
 * Tools: strict ones (strict-tools.ts; Gemini 3 and later) in strict form, with the `VALIDATED`
 * function-calling mode.
 */
import { fitOutputToWindow } from "../output-room.ts";
import { clampThinkingLevel } from "../thinking.ts";
import type { BudgetLevel, LlmContext, Model, StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.ts";
import { convertGoogleMessages, convertGoogleTools, stripLoneSurrogates, type GoogleDialect } from "./google-convert.ts";
import type { GoogleGenerationConfig, GoogleRequestBody, GoogleThinkingConfig, GoogleThinkingLevel } from "./google-wire.ts";

/** Models that take a discrete `thinkingLevel` rather than a token budget. */
export function usesThinkingLevel(model: Pick<Model, "id">): boolean {
  const id = model.id.toLowerCase();
  return /gemini-3(?:\.\d+)?-(?:pro|flash)/.test(id) || id === "gemini-flash-latest" || id === "gemini-flash-lite-latest" || /gemma-?4/.test(id);
}

/**
 * The Google level for a (clamped) pig level: the model's `thinkingLevelMap` may name another
 * one (`"MINIMAL"`, any case). A mapping Google does not know is a configuration mistake.
 */
export function googleThinkingLevel(model: Model, level: ThinkingLevel): GoogleThinkingLevel {
  const mapped = model.thinkingLevelMap?.[level];
  const resolved = typeof mapped === "string" ? mapped.toLowerCase() : level;
  if (resolved === "minimal" || resolved === "low" || resolved === "medium" || resolved === "high") {
    return resolved.toUpperCase() as GoogleThinkingLevel;
  }
  throw new Error(`Unsupported Google thinking level mapping for ${model.provider}/${model.id}: ${level} -> ${String(mapped)}`);
}

const BUDGETS: Record<string, Record<BudgetLevel, number>> = {
  "2.5-pro": { minimal: 128, low: 2048, medium: 8192, high: 32768 },
  "2.5-flash-lite": { minimal: 512, low: 2048, medium: 8192, high: 24576 },
  "2.5-flash": { minimal: 128, low: 2048, medium: 8192, high: 24576 },
};

/**
 * The token budget for a level: the `thinkingBudgets` setting, else the model family's, else -1
 * (dynamic). Vertex's table has no Flash-Lite row (Flash's applies), as upstream's.
 */
export function googleThinkingBudget(model: Model, level: BudgetLevel, dialect: GoogleDialect, custom?: ThinkingBudgets): number {
  const own = custom?.[level];
  if (own !== undefined) return own;
  const families = dialect === "gemini" ? ["2.5-pro", "2.5-flash-lite", "2.5-flash"] : ["2.5-pro", "2.5-flash"];
  const family = families.find((name) => model.id.includes(name));
  return family ? BUDGETS[family]![level] : -1;
}

function thinkingConfig(model: Model, options: StreamOptions, dialect: GoogleDialect): GoogleThinkingConfig | undefined {
  if (!model.reasoning) return undefined;
  const level = options.reasoning;
  if (level === undefined || level === "off") {
    if (!usesThinkingLevel(model)) return { thinkingBudget: 0 };
    const lowest = clampThinkingLevel(model, "off");
    return lowest === "off" ? { thinkingBudget: 0 } : { thinkingLevel: googleThinkingLevel(model, lowest) };
  }
  const googleLevel = googleThinkingLevel(model, level);
  if (usesThinkingLevel(model)) return { includeThoughts: true, thinkingLevel: googleLevel };
  const budgetLevel = googleLevel.toLowerCase() as BudgetLevel;
  return { includeThoughts: true, thinkingBudget: googleThinkingBudget(model, budgetLevel, dialect, options.thinkingBudgets) };
}

/** The body for `context` on `model`. Throws on a thinking level the model maps to nothing Google knows. */
export function buildGoogleBody(model: Model, context: LlmContext, options: StreamOptions, dialect: GoogleDialect): GoogleRequestBody {
  const body: GoogleRequestBody = { contents: convertGoogleMessages(context.messages, model, dialect) };
  if (context.systemPrompt) body.systemInstruction = { parts: [{ text: stripLoneSurrogates(context.systemPrompt) }], role: "user" };
  const tools = convertGoogleTools(model, context.tools ?? [], dialect);
  if (tools) body.tools = tools.tools;
  if (tools?.mode) body.toolConfig = { functionCallingConfig: { mode: tools.mode } };
  const generation: GoogleGenerationConfig = {};
  if (options.temperature !== undefined) generation.temperature = options.temperature;
  generation.maxOutputTokens = fitOutputToWindow(model, context, options.maxTokens ?? model.maxTokens);
  const thinking = thinkingConfig(model, options, dialect);
  if (thinking) generation.thinkingConfig = thinking;
  body.generationConfig = generation;
  return body;
}
