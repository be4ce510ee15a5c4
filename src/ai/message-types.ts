/**
 * What the provider layer and the session format share: thinking levels, token usage (schemas
 * included, since sessions store them) and the three message roles a model understands. The
 * session's own message types are built on these; providers never need more of the session.
 */
import * as v from "valibot";

export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export const ThinkingLevelSchema = v.picklist(THINKING_LEVELS);
export type ThinkingLevel = v.InferOutput<typeof ThinkingLevelSchema>;

const CostSchema = v.looseObject({
  input: v.number(),
  output: v.number(),
  cacheRead: v.number(),
  cacheWrite: v.number(),
  total: v.number(),
});

export const UsageSchema = v.looseObject({
  input: v.number(),
  output: v.number(),
  cacheRead: v.number(),
  cacheWrite: v.number(),
  totalTokens: v.number(),
  /** Reasoning tokens, already counted in `output` (Pi ≥ 0.87). */
  reasoning: v.optional(v.number()),
  cost: CostSchema,
});
export type Usage = v.InferOutput<typeof UsageSchema>;

// Type aliases, not interfaces: they stay assignable to the session's loose message types.
export type LlmText = {
  type: "text";
  text: string;
  textSignature?: string;
};

/** An image as providers take it: inline base64 data, or (from foreign writers) a URL. */
export type LlmImage = {
  type: "image";
  mimeType: string;
  data?: string;
  url?: string;
};

export type LlmThinking = {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
};

export type LlmToolCall = {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
};

export type LlmUserMessage = {
  role: "user";
  content: string | (LlmText | LlmImage)[];
  timestamp: number;
};

export type LlmAssistantMessage = {
  role: "assistant";
  content: (LlmText | LlmThinking | LlmToolCall)[];
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  /** `pending` only on the partial message of an answer still streaming. */
  stopReason: "pending" | "stop" | "length" | "toolUse" | "error" | "aborted";
  errorMessage?: string;
  timestamp: number;
  responseId?: string;
  rawStopReason?: string;
  responseModel?: string;
  diagnostics?: unknown[];
  /** Anthropic models whose effort changes mid-conversation: the effort this answer was given (Pi ≥ 0.87). */
  providerThinkingLevel?: string;
  /** The level this answer was requested at; pig records it for a virtual model's routed requests (Pi 1.x). */
  thinkingLevel?: string;
};

export type LlmToolResultMessage = {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (LlmText | LlmImage)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
};

export type LlmMessage = LlmUserMessage | LlmAssistantMessage | LlmToolResultMessage;
