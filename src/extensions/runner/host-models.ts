/**
 * Model calls this process's extensions have pig make with pig's credentials (`model.auth`,
 * `model.stream`). pig never gives an extension process a key: where an extension asks for one
 * (`ctx.modelRegistry.getApiKeyAndHeaders`), it gets HOST_CREDENTIALS, a handle that stands for
 * "pig's credentials" and is worth nothing anywhere else, and a model call given that handle —
 * or no key at all — goes to pig. Set once the runner is connected; one connection per process.
 */
import type { Peer } from "./peer.ts";

/** Not a secret: sent to a provider by mistake it is refused like any wrong key. */
export const HOST_CREDENTIALS = "pig-host-credentials";

export type HostAuth = { ok: true; oauth: boolean } | { ok: false; error: string };

export interface HostModelRequest {
  model: { provider: string; id: string };
  context: Record<string, unknown>;
  options: Record<string, unknown>;
  signal?: AbortSignal;
  /** Each stream event before the last, as pig's provider produced it. */
  onEvent(event: unknown): void;
}

export interface HostModels {
  /** Whether pig would make calls to `provider` (and, given `id`, that model) for this extension. */
  auth(provider: string, id?: string): Promise<HostAuth>;
  /** The call's final answer as pig sends it (`{message}`); rejects when the call is cancelled or the connection goes. */
  stream(request: HostModelRequest): Promise<unknown>;
}

let current: HostModels | undefined;

export function connectHostModels(peer: Peer): void {
  current = {
    async auth(provider, id) {
      const answer = await peer.request<unknown>("model.auth", { provider, ...(id !== undefined ? { id } : {}) });
      const result = (answer ?? {}) as Record<string, unknown>;
      if (result.ok === true) return { ok: true, oauth: result.oauth === true };
      return { ok: false, error: typeof result.error === "string" ? result.error : "pig gave no answer about credentials" };
    },
    stream(request) {
      const params = { model: request.model, context: request.context, options: request.options };
      return peer.request("model.stream", params, { ...(request.signal ? { signal: request.signal } : {}), onProgress: request.onEvent });
    },
  };
}

/** The host's model calls, when this process is connected to pig. */
export function hostModels(): HostModels | undefined {
  return current;
}
