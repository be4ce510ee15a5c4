/**
 * What some providers need on top of the wire API they speak, applied to every request of
 * theirs in one place whichever API it goes through (Chat Completions, Responses, Anthropic
 * Messages): GitHub Copilot's headers and token-derived host, Cloudflare's account and gateway
 * in the base URL and AI Gateway's own key header. The API modules then build the request as
 * usual from the model and options returned here.
 *
 * A credential that travels in a header of the provider's own (Copilot's bearer token over the
 * Anthropic API, AI Gateway's `cf-aig-authorization`) is moved there and the API key is emptied,
 * so the API module sends no key header of its own.
 */
import type { LlmContext, Model, StreamOptions } from "../types.ts";
import { CLOUDFLARE_AI_GATEWAY, gatewayAuthHeaders, isCloudflareProvider, resolveCloudflareBaseUrl } from "./cloudflare-endpoint.ts";
import { COPILOT_PROVIDER, copilotBaseUrlFromToken, copilotHeaders } from "./copilot-headers.ts";
import { envLookup } from "./provider-env.ts";

export interface ProviderRequest {
  model: Model;
  options: StreamOptions;
}

/** The model and options a request is built from; throws a clear error when the configuration is incomplete. */
export function prepareProviderRequest(model: Model, context: LlmContext, options: StreamOptions, env: NodeJS.ProcessEnv = process.env): ProviderRequest {
  if (model.provider === COPILOT_PROVIDER) return copilotRequest(model, context, options);
  if (isCloudflareProvider(model.provider)) return cloudflareRequest(model, options, env);
  return { model, options };
}

function copilotRequest(model: Model, context: LlmContext, options: StreamOptions): ProviderRequest {
  const baseUrl = copilotBaseUrlFromToken(options.apiKey) ?? model.baseUrl;
  const headers = copilotHeaders(context.messages, model.headers, options.headers);
  // Copilot takes its token as a bearer token on every API; Anthropic's own header would be x-api-key.
  if (model.api === "anthropic-messages" && options.apiKey) {
    return { model: { ...model, baseUrl }, options: { ...options, apiKey: "", headers: { Authorization: `Bearer ${options.apiKey}`, ...headers } } };
  }
  return { model: { ...model, baseUrl }, options: { ...options, headers } };
}

function cloudflareRequest(model: Model, options: StreamOptions, env: NodeJS.ProcessEnv): ProviderRequest {
  const baseUrl = resolveCloudflareBaseUrl(model, envLookup(options.credentialEnv, env));
  if (model.provider !== CLOUDFLARE_AI_GATEWAY || !options.apiKey) return { model: { ...model, baseUrl }, options };
  return { model: { ...model, baseUrl }, options: { ...options, apiKey: "", headers: { ...gatewayAuthHeaders(options.apiKey), ...options.headers } } };
}
