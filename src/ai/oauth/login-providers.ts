/**
 * The providers that offer a subscription login, as data: what the pickers list and what the
 * endpoints file may name. Where each flow's code lives is logins.ts's business.
 */
import type { SubscriptionLogin } from "./types.ts";

export const SUBSCRIPTION_LOGINS: readonly SubscriptionLogin[] = [
  { provider: "anthropic", name: "Claude Pro/Max", flow: "browser" },
  { provider: "openai-codex", name: "ChatGPT Plus/Pro (Codex)", flow: "browser" },
  { provider: "github-copilot", name: "GitHub Copilot", flow: "device" },
  { provider: "kimi-coding", name: "Kimi For Coding", flow: "device" },
  { provider: "xai", name: "SuperGrok or X Premium (xAI)", flow: "device" },
  { provider: "openrouter", name: "OpenRouter (an API key by signing in)", flow: "browser" },
  { provider: "meta", name: "Meta (Muse subscription)", flow: "device" },
  { provider: "radius", name: "Radius", flow: "browser" },
];

export const LOGIN_PROVIDERS: readonly string[] = SUBSCRIPTION_LOGINS.map((login) => login.provider);
