/**
 * The providers that offer a subscription login, cheap to list (no flow code is loaded), and
 * where each one's flow lives: a flow module is loaded only when its login or refresh runs.
 */
import type { OAuthFlow } from "./flow.ts";
import type { SubscriptionLogin } from "./types.ts";

interface LoginEntry extends SubscriptionLogin {
  load(): Promise<OAuthFlow>;
}

const LOGINS: readonly LoginEntry[] = [
  { provider: "anthropic", name: "Claude Pro/Max", flow: "browser", load: async () => (await import("./flows/anthropic.ts")).anthropicFlow },
  { provider: "openai-codex", name: "ChatGPT Plus/Pro (Codex)", flow: "browser", load: async () => (await import("./flows/openai-codex.ts")).openaiCodexFlow },
  { provider: "github-copilot", name: "GitHub Copilot", flow: "device", load: async () => (await import("./flows/github-copilot.ts")).githubCopilotFlow },
  { provider: "kimi-coding", name: "Kimi For Coding", flow: "device", load: async () => (await import("./flows/kimi-coding.ts")).kimiCodingFlow },
  { provider: "xai", name: "SuperGrok or X Premium (xAI)", flow: "device", load: async () => (await import("./flows/xai.ts")).xaiFlow },
  { provider: "openrouter", name: "OpenRouter (an API key by signing in)", flow: "browser", load: async () => (await import("./flows/openrouter.ts")).openrouterFlow },
  { provider: "meta", name: "Meta (Muse subscription)", flow: "device", load: async () => (await import("./flows/meta.ts")).metaFlow },
  { provider: "radius", name: "Radius", flow: "browser", load: async () => (await import("./flows/radius.ts")).radiusFlow },
];

export const LOGIN_PROVIDERS: readonly string[] = LOGINS.map((login) => login.provider);

export function loginList(): readonly SubscriptionLogin[] {
  return LOGINS.map(({ provider, name, flow }) => ({ provider, name, flow }));
}

/** The flow of `provider`, loaded now; undefined for a provider without a subscription login. */
export async function loadFlow(provider: string): Promise<OAuthFlow | undefined> {
  return LOGINS.find((login) => login.provider === provider)?.load();
}

export function hasLogin(provider: string): boolean {
  return LOGIN_PROVIDERS.includes(provider);
}
