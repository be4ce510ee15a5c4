/**
 * How an OpenAI-compatible server is asked to think: the body fields of each `thinkingFormat`
 * Pi 0.87.1 knows, and the reasoning token cap some servers take. Pure.
 *
 * | format | thinking on | thinking off |
 * |---|---|---|
 * | `openai` | `reasoning_effort` | the map's `off` string as `reasoning_effort`, else nothing |
 * | `openrouter` | `reasoning: {effort}` | `reasoning: {effort: off ?? "none"}` unless off is unsupported |
 * | `deepseek` | `thinking: {type: "enabled"}`, `reasoning_effort` | `thinking: {type: "disabled"}` unless off is unsupported |
 * | `zai` | `thinking: {type: "enabled", clear_thinking: false}`, `reasoning_effort` where supported | `thinking: {type: "disabled"}` |
 * | `qwen` | `enable_thinking: true`, `reasoning_effort` where supported | `enable_thinking: false` |
 * | `qwen-chat-template` | `chat_template_kwargs: {enable_thinking: true, preserve_thinking: true}` | the same with false |
 * | `chat-template` | `chat_template_kwargs` from `compat.chatTemplateKwargs` | the same |
 * | `baseten` | `chat_template_args` from `compat.chatTemplateArgs`, `reasoning_effort` | the same, the map's `off` |
 * | `ant-ling` | `reasoning: {effort}` for a mapped level | nothing |
 * | `together` | `reasoning: {enabled: true}`, `reasoning_effort` where supported | `reasoning: {enabled: false}` |
 * | `string-thinking` | `thinking: <effort>` | `thinking: off ?? "none"` unless off is unsupported |
 *
 * `reasoning_effort` and the other effort values are the model's `thinkingLevelMap` value for the
 * level, else the level's name. A chat-template value is either given as it is or a variable:
 * `{$var: "thinking.enabled"}`, `{$var: "thinking.budget"}`, or the effort (any other object;
 * `omitWhenOff` leaves it out while thinking is off).
 */
import { clampThinkingLevel } from "../thinking.ts";
import type { Model, StreamOptions, ThinkingLevel } from "../types.ts";
import type { ResolvedCompat } from "./openai-shared.ts";

type Json = Record<string, unknown>;

/** Pi's default reasoning budgets per level (`xhigh` and `max` take `high`'s). */
const DEFAULT_BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 16384 } as const;
/** Tokens left for the answer when a budget has to shrink to fit the output cap. */
const MIN_ANSWER_TOKENS = 1024;

/** The level the request thinks at, or undefined when it does not (Pi's `reasoningEffort`). */
function activeLevel(model: Model, level: ThinkingLevel | undefined): Exclude<ThinkingLevel, "off"> | undefined {
  if (!model.reasoning || level === undefined || level === "off") return undefined;
  const clamped = clampThinkingLevel(model, level);
  return clamped === "off" ? undefined : clamped;
}

/** The wire value of `level`: the map's string, else the level itself; a `null` in the map gives none. */
function effortValue(model: Model, level: ThinkingLevel): string | undefined {
  const mapped = model.thinkingLevelMap?.[level];
  if (mapped === null) return undefined;
  return mapped ?? level;
}

/** The reasoning budget for `level` within `ceiling`, 0 and below meaning none. */
export function reasoningBudget(level: ThinkingLevel, ceiling: number, budgets: StreamOptions["thinkingBudgets"]): number | undefined {
  const key = level === "xhigh" || level === "max" || level === "off" ? "high" : level;
  const budget = Math.min({ ...DEFAULT_BUDGETS, ...budgets }[key], Math.max(0, ceiling - MIN_ANSWER_TOKENS));
  return budget > 0 ? budget : undefined;
}

function templateValue(model: Model, level: ThinkingLevel | undefined, value: unknown, budget: number | undefined): unknown {
  if (typeof value !== "object" || value === null) return value;
  const spec = value as { $var?: unknown; omitWhenOff?: unknown };
  if (!level && spec.omitWhenOff) return undefined;
  if (spec.$var === "thinking.enabled") return level !== undefined;
  if (spec.$var === "thinking.budget") return budget;
  const mapped = model.thinkingLevelMap?.[level ?? "off"];
  if (mapped === undefined) return level;
  return typeof mapped === "string" ? mapped : undefined;
}

function templateValues(model: Model, level: ThinkingLevel | undefined, values: unknown, budget: number | undefined): Json | undefined {
  if (typeof values !== "object" || values === null) return undefined;
  const out: Json = {};
  for (const [key, value] of Object.entries(values)) {
    const resolved = templateValue(model, level, value, budget);
    if (resolved !== undefined) out[key] = resolved;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The field a server takes a reasoning token cap in, if any (`compat.thinkingTokenBudgetField`, or `thinking_token_budget`). */
function budgetField(compat: ResolvedCompat): string | undefined {
  if (compat.thinkingTokenBudgetField) return compat.thinkingTokenBudgetField;
  return compat.supportsThinkingTokenBudget ? "thinking_token_budget" : undefined;
}

/**
 * The thinking fields for `model` at `options.reasoning`, in Pi's body order. `outputCap` is the
 * request's output cap (the budget must leave room for an answer within it).
 */
export function reasoningFields(model: Model, compat: ResolvedCompat, options: StreamOptions, outputCap: number | undefined): Json {
  if (!model.reasoning) return {};
  const level = activeLevel(model, options.reasoning);
  const effort = level ? effortValue(model, level) : undefined;
  const off = model.thinkingLevelMap?.off;
  const budget = level ? reasoningBudget(level, outputCap ?? model.maxTokens, options.thinkingBudgets) : undefined;
  const fields: Json = {};
  switch (compat.thinkingFormat) {
    case "zai":
      fields.thinking = level ? { type: "enabled", clear_thinking: false } : { type: "disabled" };
      if (level && compat.supportsReasoningEffort && effort !== undefined) fields.reasoning_effort = effort;
      break;
    case "qwen":
      fields.enable_thinking = level !== undefined;
      if (level && compat.supportsReasoningEffort && effort !== undefined) fields.reasoning_effort = effort;
      break;
    case "qwen-chat-template":
      fields.chat_template_kwargs = { enable_thinking: level !== undefined, preserve_thinking: true };
      break;
    case "chat-template": {
      const kwargs = templateValues(model, level, compat.chatTemplateKwargs, budget);
      if (kwargs) fields.chat_template_kwargs = kwargs;
      break;
    }
    case "baseten": {
      const args = templateValues(model, level, compat.chatTemplateArgs, budget);
      if (args) fields.chat_template_args = args;
      if (compat.supportsReasoningEffort) {
        const value = level ? effort : typeof off === "string" ? off : undefined;
        if (value !== undefined) fields.reasoning_effort = value;
      }
      break;
    }
    case "deepseek":
      if (level) fields.thinking = { type: "enabled" };
      else if (off !== null) fields.thinking = { type: "disabled" };
      if (level && compat.supportsReasoningEffort) fields.reasoning_effort = model.thinkingLevelMap?.[level] ?? level;
      break;
    case "openrouter":
      if (level) fields.reasoning = { effort: model.thinkingLevelMap?.[level] ?? level };
      else if (off !== null) fields.reasoning = { effort: off ?? "none" };
      break;
    case "ant-ling": {
      const mapped = level ? model.thinkingLevelMap?.[level] : undefined;
      if (typeof mapped === "string") fields.reasoning = { effort: mapped };
      break;
    }
    case "together":
      fields.reasoning = { enabled: level !== undefined };
      if (level && compat.supportsReasoningEffort) fields.reasoning_effort = model.thinkingLevelMap?.[level] ?? level;
      break;
    case "string-thinking":
      if (level) fields.thinking = model.thinkingLevelMap?.[level] ?? level;
      else if (off !== null) fields.thinking = off ?? "none";
      break;
    default:
      if (compat.supportsReasoningEffort) {
        if (level) fields.reasoning_effort = model.thinkingLevelMap?.[level] ?? level;
        else if (typeof off === "string") fields.reasoning_effort = off;
      }
  }
  // A cap on reasoning, whatever the format: reasoning and answer share the output cap there.
  const field = budgetField(compat);
  if (field && budget !== undefined) fields[field] = budget;
  return fields;
}
