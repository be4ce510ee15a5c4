/**
 * GitHub Copilot (provider `github-copilot`) speaks three of pig's APIs (Chat Completions,
 * Responses, Anthropic Messages) and wants the same things on each request: the identity of the
 * editor it serves (Copilot refuses requests without it), who started the request (`X-Initiator`:
 * the user typing, or the agent going on after a tool), the intent, and a flag when images are
 * sent. Its host comes from the Copilot token itself (`proxy-ep=proxy.<host>` → `https://api.<host>`).
 * Pure: headers and a URL from the request's context and token.
 */
import type { LlmMessage } from "../types.ts";

export const COPILOT_PROVIDER = "github-copilot";

/** The editor identity Copilot's own VS Code extension sends (the values upstream Pi 0.87.1 sends). */
export const COPILOT_STATIC_HEADERS: Readonly<Record<string, string>> = {
  "User-Agent": "GitHubCopilotChat/0.35.0",
  "Editor-Version": "vscode/1.107.0",
  "Editor-Plugin-Version": "copilot-chat/0.35.0",
  "Copilot-Integration-Id": "vscode-chat",
};

/** `user` when the request answers the user's own message; `agent` when it follows the model's turn (tool results). */
export function copilotInitiator(messages: readonly LlmMessage[]): "user" | "agent" {
  const last = messages.at(-1);
  return last && last.role !== "user" ? "agent" : "user";
}

/** Whether any user message or tool result carries an image. */
export function hasImageInput(messages: readonly LlmMessage[]): boolean {
  return messages.some(
    (message) => (message.role === "user" || message.role === "toolResult") && Array.isArray(message.content) && message.content.some((part) => part.type === "image"),
  );
}

/** The headers that depend on the request's messages. */
export function copilotDynamicHeaders(messages: readonly LlmMessage[]): Record<string, string> {
  return {
    "X-Initiator": copilotInitiator(messages),
    "Openai-Intent": "conversation-edits",
    ...(hasImageInput(messages) ? { "Copilot-Vision-Request": "true" } : {}),
  };
}

/**
 * The API host a Copilot token names: its `proxy-ep=proxy.individual.githubcopilot.com` field
 * becomes `https://api.individual.githubcopilot.com`. Undefined for a token without the field
 * (a GitHub token given directly), which then goes to the model's base URL.
 */
export function copilotBaseUrlFromToken(token: string): string | undefined {
  const match = /(?:^|;)\s*proxy-ep=([^;]+)/.exec(token);
  const host = match?.[1]?.trim();
  if (!host) return undefined;
  return `https://${host.replace(/^proxy\./, "api.")}`;
}

/**
 * Every header of a Copilot request besides the model's and the key: the editor identity where
 * the model and the caller name none of their own, then the dynamic ones; the caller's headers
 * (models.json, extensions) come last and win.
 */
export function copilotHeaders(
  messages: readonly LlmMessage[],
  modelHeaders: Readonly<Record<string, string>> | undefined,
  callerHeaders: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const named = new Set([...Object.keys(modelHeaders ?? {}), ...Object.keys(callerHeaders ?? {})].map((name) => name.toLowerCase()));
  const identity = Object.fromEntries(Object.entries(COPILOT_STATIC_HEADERS).filter(([name]) => !named.has(name.toLowerCase())));
  return { ...identity, ...copilotDynamicHeaders(messages), ...callerHeaders };
}
