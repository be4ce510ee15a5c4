/**
 * Cloudflare's two providers: Workers AI (`https://api.cloudflare.com/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`,
 * OpenAI-compatible) and AI Gateway (`https://gateway.ai.cloudflare.com/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/<upstream>`,
 * speaking each upstream's API). Their base URLs hold placeholders filled at request time from
 * the stored credential's values (auth.json `{"type":"api_key","key":…,"env":{…}}`), else the
 * environment. Through AI Gateway the key authenticates with the gateway (`cf-aig-authorization`),
 * and no provider key header is sent. Pure.
 */
import type { EnvLookup } from "./provider-env.ts";

export const CLOUDFLARE_WORKERS_AI = "cloudflare-workers-ai";
export const CLOUDFLARE_AI_GATEWAY = "cloudflare-ai-gateway";
export const CLOUDFLARE_PLACEHOLDERS = ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"] as const;

export function isCloudflareProvider(provider: string): boolean {
  return provider === CLOUDFLARE_WORKERS_AI || provider === CLOUDFLARE_AI_GATEWAY;
}

/**
 * The base URL with its `{CLOUDFLARE_ACCOUNT_ID}` / `{CLOUDFLARE_GATEWAY_ID}` filled in. A
 * placeholder without a value is an error naming the variable and where it may be set.
 */
export function resolveCloudflareBaseUrl(model: { id: string; provider: string; baseUrl: string }, env: EnvLookup): string {
  let url = model.baseUrl;
  for (const name of CLOUDFLARE_PLACEHOLDERS) {
    const placeholder = `{${name}}`;
    if (!url.includes(placeholder)) continue;
    const value = env(name)?.trim();
    if (!value) {
      throw new Error(
        `${model.provider}: model "${model.id}" needs ${name} (its base URL is ${model.baseUrl}). Set ${name} in the environment, ` +
          `or store it with the key in auth.json: {"${model.provider}": {"type": "api_key", "key": "…", "env": {"${name}": "…"}}}`,
      );
    }
    if (!/^[A-Za-z0-9_-]+$/.test(value)) throw new Error(`${model.provider}: ${name} must be an id (letters, digits, "-", "_"), not "${value}"`);
    url = url.replaceAll(placeholder, value);
  }
  return url;
}

/** AI Gateway's own authentication header for `key`. */
export function gatewayAuthHeaders(key: string): Record<string, string> {
  return { "cf-aig-authorization": `Bearer ${key}` };
}
