/** The URL a model's requests go to, as each API's client builds it from the base URL. */
import type { Model } from "./types.ts";
import { resolveAzureEndpoint } from "./providers/azure-config.ts";
import { envLookup } from "./providers/provider-env.ts";

export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const DEFAULT_CODEX_BASE_URL = "https://chatgpt.com/backend-api";

/** `{baseUrl}/codex/responses`, whether the base URL names the ChatGPT backend, its `/codex` or the endpoint itself. */
export function codexUrl(baseUrl: string): string {
  const base = (baseUrl.trim() || DEFAULT_CODEX_BASE_URL).replace(/\/+$/, "");
  if (base.endsWith("/codex/responses")) return base;
  if (base.endsWith("/codex")) return `${base}/responses`;
  return `${base}/codex/responses`;
}

export function endpointUrl(model: Pick<Model, "api" | "baseUrl">): string {
  switch (model.api) {
    case "anthropic-messages":
      return `${(model.baseUrl || DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, "")}/v1/messages`;
    case "openai-completions":
      return `${model.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    case "openai-responses":
      return `${model.baseUrl.replace(/\/+$/, "")}/responses`;
    case "openai-codex-responses":
      return codexUrl(model.baseUrl);
    case "azure-openai-responses":
      try {
        // Azure's endpoint comes from the environment first (providers/azure-config.ts).
        return `${resolveAzureEndpoint({ id: "", provider: "", ...model }, envLookup(process.env)).baseUrl}/responses`;
      } catch {
        return model.baseUrl;
      }
    default:
      // An extension's API: the extension makes its own requests, from its own base URL.
      return model.baseUrl;
  }
}
