/** The Anthropic Messages API's request types (what `buildAnthropicRequest` sends). */

export interface CacheControl {
  type: "ephemeral";
  ttl?: "1h";
}

type ImageSource = { type: "base64"; media_type: string; data?: string } | { type: "url"; url: string };

export type AnthropicContentBlock =
  | { type: "text"; text: string; cache_control?: CacheControl }
  | { type: "image"; source: ImageSource; cache_control?: CacheControl }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string | undefined }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | {
      type: "tool_result";
      tool_use_id: string;
      content: string | AnthropicContentBlock[];
      is_error: boolean;
      cache_control?: CacheControl;
    };

export interface AnthropicMessageParam {
  /** `system`: an effort marker (`content: []`, `output_config`) of models whose effort changes mid-conversation. */
  role: "user" | "assistant" | "system";
  content: string | AnthropicContentBlock[];
  output_config?: { effort: string };
}

export interface AnthropicTool {
  name: string;
  description: string;
  eager_input_streaming?: true;
  strict?: true;
  /** A strict tool's schema keeps its other keys (`additionalProperties`…). */
  input_schema: { type: "object"; properties: unknown; required: unknown; [key: string]: unknown };
  cache_control?: CacheControl;
  /** Declared but not active until the conversation adds it. */
  defer_loading?: true;
}

export interface AnthropicRequestBody {
  model: string;
  messages: AnthropicMessageParam[];
  max_tokens: number;
  stream: true;
  system?: { type: "text"; text: string; cache_control?: CacheControl }[];
  temperature?: number;
  tools?: AnthropicTool[];
  thinking?:
    | { type: "enabled"; budget_tokens: number; display: string }
    | { type: "adaptive"; display: string; block_binding?: { prefix_mismatch_behavior: "drop_block" } }
    | { type: "disabled" };
  output_config?: { effort: string };
  /** Models Anthropic may answer with instead (`compat.allowedFallbackModels`). */
  fallbacks?: { model: string }[];
}

export interface AnthropicRequest {
  url: string;
  headers: Record<string, string>;
  body: AnthropicRequestBody;
}
