/**
 * `ctx.modelRegistry`: the models of the state mirror and, for auth, pig's word. pig keeps its
 * credentials: `getApiKeyAndHeaders` answers with HOST_CREDENTIALS when pig can call the model,
 * and a call made with that handle (or with no key) is made by pig (host-models.ts). The
 * synchronous questions (`hasConfiguredAuth`, `isUsingOAuth`) read the providers with
 * credentials that every `state` carries; the asynchronous ones ask pig (`model.auth`).
 */
import type { Model, ModelCallContext, ModelCallStream, ModelRegistry } from "../api/types.ts";
import { AssistantMessageEventStream } from "../compat/event-stream.ts";
import { HOST_CREDENTIALS, hostModels, type HostAuth } from "./host-models.ts";
import type { Runtime } from "./runtime.ts";

type Json = Record<string, unknown>;

const NOT_CONNECTED = "this extension process is not connected to pig";

/**
 * A call pig makes, whatever key the options carry: the stream is made now, the module that
 * talks to pig loads when it is first needed (not with the runner).
 */
function hostCall(model: Model, context: ModelCallContext, options: Json | undefined): ModelCallStream {
  const out = new AssistantMessageEventStream();
  void import("../compat/host-stream.ts").then(
    async ({ streamThroughHost }) => {
      for await (const event of streamThroughHost(model, context as unknown as Json, options, NOT_CONNECTED)) out.push(event);
    },
    (error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      out.push({ type: "error", reason: "error", error: { role: "assistant", content: [], provider: model.provider, model: model.id, stopReason: "error", errorMessage: text } });
    },
  );
  return out as unknown as ModelCallStream;
}

export function modelRegistry(runtime: Runtime): ModelRegistry {
  const all = (): Model[] => {
    const { models, model } = runtime.state.value;
    if (models && models.length > 0) return models;
    return model ? [model] : [];
  };
  const kind = (provider: string) => runtime.state.value.credentials?.[provider];
  // A host that does not say which providers have credentials: every model it shows may be called.
  const configured = (model: Model) => (runtime.state.value.credentials ? kind(model.provider) !== undefined : all().some((m) => m.provider === model.provider && m.id === model.id));
  const auth = (provider: string, id?: string): Promise<HostAuth> => hostModels()?.auth(provider, id) ?? Promise.resolve({ ok: false, error: NOT_CONNECTED });
  return {
    find: (provider, id) => all().find((m) => m.provider === provider && m.id === id),
    getAll: all,
    getAvailable: () => all().filter(configured),
    getError: () => undefined,
    hasConfiguredAuth: configured,
    getApiKeyAndHeaders: async (model) => {
      const answer = await auth(model.provider, model.id);
      return answer.ok ? { ok: true, apiKey: HOST_CREDENTIALS } : { ok: false, error: answer.error };
    },
    getApiKeyForProvider: async (provider) => ((await auth(provider)).ok ? HOST_CREDENTIALS : undefined),
    getProviderAuth: async (provider) => ((await auth(provider)).ok ? { auth: { apiKey: HOST_CREDENTIALS }, source: "pig" } : undefined),
    getProviderAuthStatus: (provider) => (kind(provider) ? { configured: true, source: "runtime", label: "pig" } : { configured: false }),
    isUsingOAuth: (model) => kind(model.provider) === "oauth",
    getProviderDisplayName: (provider) => provider,
    stream: (model, context, options) => hostCall(model, context, options),
    streamSimple: (model, context, options) => hostCall(model, context, options),
    complete: (model, context, options) => hostCall(model, context, options).result(),
  };
}
