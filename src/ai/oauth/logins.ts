/**
 * The providers that offer a subscription login, cheap to list (no flow code is loaded), and
 * where each one's flow lives: a flow module is loaded only when its login or refresh runs.
 */
import type { OAuthFlow } from "./flow.ts";
import { LOGIN_PROVIDERS, SUBSCRIPTION_LOGINS } from "./login-providers.ts";
import type { SubscriptionLogin } from "./types.ts";

/** Each provider's flow module, loaded when its login or renewal runs. */
const FLOWS: Readonly<Record<string, () => Promise<OAuthFlow>>> = {
  anthropic: async () => (await import("./flows/anthropic.ts")).anthropicFlow,
  "openai-codex": async () => (await import("./flows/openai-codex.ts")).openaiCodexFlow,
  "github-copilot": async () => (await import("./flows/github-copilot.ts")).githubCopilotFlow,
  "kimi-coding": async () => (await import("./flows/kimi-coding.ts")).kimiCodingFlow,
  xai: async () => (await import("./flows/xai.ts")).xaiFlow,
  openrouter: async () => (await import("./flows/openrouter.ts")).openrouterFlow,
  meta: async () => (await import("./flows/meta.ts")).metaFlow,
  radius: async () => (await import("./flows/radius.ts")).radiusFlow,
};

export { LOGIN_PROVIDERS };

export function loginList(): readonly SubscriptionLogin[] {
  return SUBSCRIPTION_LOGINS.map((login) => ({ ...login }));
}

/** The flow of `provider`, loaded now; undefined for a provider without a subscription login. */
export async function loadFlow(provider: string): Promise<OAuthFlow | undefined> {
  return Object.hasOwn(FLOWS, provider) ? FLOWS[provider]!() : undefined;
}

export function hasLogin(provider: string): boolean {
  return LOGIN_PROVIDERS.includes(provider);
}
