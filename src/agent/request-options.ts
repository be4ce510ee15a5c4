/**
 * The options of every model request the session makes: the key and headers (resolved per
 * request, so a `!command` key runs again), reasoning, HTTP limits, and the hooks that watch the
 * request. Whatever identifies pig to the provider is handed to the redactor, so it is kept out
 * of messages shown or stored.
 */
import type { ModelRegistry } from "../ai/registry.ts";
import type { Model, StreamOptions, ThinkingBudgets } from "../ai/types.ts";
import type { RetrySettings } from "../resources/settings-effective.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { SecretRedactor } from "../util/redact.ts";
import type { AgentHooks } from "./hooks.ts";

/** Headers whose values are credentials (an `Authorization`, an `x-api-key`, a token, a cookie). */
const SECRET_HEADER = /auth|key|token|secret|password|cookie|session/i;

export interface RequestInputs {
  registry: ModelRegistry;
  level: ThinkingLevel;
  sessionId: string;
  retry: RetrySettings;
  thinkingBudgets?: ThinkingBudgets | undefined;
  redactor: SecretRedactor;
  /** Absent when nothing watches requests (no payload copy, no header walk). */
  hooks?: AgentHooks | undefined;
}

/**
 * Awaited before each request: a subscription login about to expire is renewed first. Throws when
 * the credentials cannot be had (a key command failed, a login was revoked).
 */
export async function requestOptions(model: Model, inputs: RequestInputs, signal?: AbortSignal): Promise<StreamOptions> {
  const { registry, retry, hooks } = inputs;
  const auth = await registry.requestAuth(model, signal);
  for (const secret of auth.secrets) inputs.redactor.add(secret);
  const apiKey = auth.apiKey ?? "";
  const reasoning = inputs.level === "off" ? undefined : inputs.level;
  const headers = { ...auth.headers, ...registry.headers(model, apiKey) };
  const credentialEnv = registry.credentialEnv(model);
  inputs.redactor.add(apiKey);
  for (const [name, value] of Object.entries(headers)) if (SECRET_HEADER.test(name)) inputs.redactor.add(value);
  return {
    apiKey,
    headers,
    ...(credentialEnv ? { credentialEnv } : {}),
    ...(reasoning ? { reasoning } : {}),
    sessionId: inputs.sessionId,
    maxRetries: retry.provider.maxRetries ?? 0,
    ...(retry.provider.timeoutMs !== undefined ? { timeoutMs: retry.provider.timeoutMs } : {}),
    maxRetryDelayMs: retry.provider.maxRetryDelayMs,
    ...(retry.provider.idleTimeoutMs !== undefined ? { idleTimeoutMs: retry.provider.idleTimeoutMs } : {}),
    ...(inputs.thinkingBudgets ? { thinkingBudgets: inputs.thinkingBudgets } : {}),
    ...(hooks
      ? {
          onPayload: (payload: unknown) => hooks.beforeProviderRequest(payload),
          onHeaders: (headers: Record<string, string>) => hooks.beforeProviderHeaders(headers),
          onResponse: (response: { status: number; headers: Record<string, string> }) => hooks.afterProviderResponse(response),
        }
      : {}),
    // Every event of every answer would be copied for nobody otherwise.
    ...(hooks?.listens("provider_stream_event")
      ? { onStreamEvent: (data: unknown) => hooks.providerStreamEvent({ provider: model.provider, api: model.api, model: model.id, data }) }
      : {}),
  };
}
