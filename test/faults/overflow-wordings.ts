/**
 * Context overflow as each provider words it (the wordings src/ai/errors.ts recognises), and the
 * summary answer and prompt sizes the overflow cases use.
 */
import type { ScriptResponse } from "../helpers/fake-llm/server.ts";
import type { FixtureApi } from "../helpers/pig-env.ts";

export const OVERFLOWS: { source: string; error: ScriptResponse; apis?: FixtureApi[] }[] = [
  {
    source: "OpenAI",
    error: {
      error: {
        status: 400,
        message: "This model's maximum context length is 20000 tokens. However, your messages resulted in 25013 tokens. Please reduce the length of the messages.",
        code: "context_length_exceeded",
      },
    },
  },
  { source: "Anthropic", error: { error: { status: 400, message: "prompt is too long: 25013 tokens > 20000 maximum" } } },
  {
    source: "Anthropic, request size",
    error: { error: { status: 413, type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } },
    // Only Anthropic's error body (kept whole in its message) carries the type.
    apis: ["anthropic-messages"],
  },
  { source: "Amazon Bedrock", error: { error: { status: 400, message: "Input is too long for requested model." } } },
  { source: "OpenAI Responses", error: { error: { status: 400, message: "Your input exceeds the context window of this model. Please adjust your input and try again." } } },
  { source: "Google Gemini", error: { error: { status: 400, message: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)." } } },
  { source: "xAI", error: { error: { status: 400, message: "This model's maximum prompt length is 131072 but the request contains 537812 tokens." } } },
  { source: "Groq", error: { error: { status: 400, message: "Please reduce the length of the messages or completion." } } },
  { source: "GitHub Copilot", error: { error: { status: 400, message: "prompt token count of 135000 exceeds the limit of 128000" } } },
  { source: "llama.cpp", error: { error: { status: 400, message: "the request exceeds the available context size, try increasing it" } } },
  { source: "LM Studio", error: { error: { status: 400, message: "The number of tokens to keep from the initial prompt is greater than the context length" } } },
  { source: "MiniMax", error: { error: { status: 400, message: "invalid params, context window exceeds limit (2013)" } } },
  { source: "Kimi", error: { error: { status: 400, message: "Your request exceeded model token limit: 262144 (requested: 300000)" } } },
  { source: "Mistral", error: { error: { status: 400, message: "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length" } } },
  { source: "Z.ai", error: { error: { status: 400, message: "model_context_window_exceeded" } } },
  { source: "Ollama", error: { error: { status: 400, message: "prompt too long; exceeded max context length by 1200 tokens" } } },
  { source: "code context_length_exceeded", error: { error: { status: 400, message: "context_length_exceeded" } } },
  { source: "too many tokens", error: { error: { status: 400, message: "Too many tokens in the request for this model" } } },
  { source: "token limit exceeded", error: { error: { status: 400, message: "Token limit exceeded for this model" } } },
  { source: "400 without a body", error: { raw: { status: 400, contentType: "application/json", body: "" } } },
  { source: "413 without a body", error: { raw: { status: 413, contentType: "text/plain", body: "" } } },
];

export const SUMMARY: ScriptResponse = { when: "context summarization assistant", text: "## Goal\nKeep going.", repeat: 10 };
/** A prompt of roughly `tokens` estimated tokens (4 characters each). */
export const words = (label: string, tokens: number) => `${label} ${"lorem ipsum dolor sit amet ".repeat(Math.ceil((tokens * 4) / 27))}`;
