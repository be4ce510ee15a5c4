/**
 * `ctx.modelRegistry`: pig's model list and, for auth, pig's word. The list is asked of pig
 * (`model.list`, synchronously: upstream's reads are synchronous) when first read and again only
 * once a `state` says the list changed (`modelsRevision`). Which models are available — their
 * provider has credentials, as upstream lists them — is read from the providers with credentials
 * every `state` carries. pig keeps its credentials: `getApiKeyAndHeaders` answers with
 * HOST_CREDENTIALS when pig can call the model, and a call made with that handle (or with no key)
 * is made by pig (host-models.ts); the asynchronous auth questions ask pig (`model.auth`).
 */
import type { Model, ModelCallContext, ModelCallStream, ModelRegistry } from "../api/types.ts";
import { AssistantMessageEventStream } from "../compat/event-stream.ts";
import { HOST_CREDENTIALS, hostModels, type HostAuth } from "./host-models.ts";
import type { Runtime } from "./runtime.ts";

type Json = Record<string, unknown>;

const NOT_CONNECTED = "this extension process is not connected to pig";
const LIST_TIMEOUT_MS = 30_000;

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

/** What upstream's classifier and image calls answer when they fail: they never reject. */
function noModelsOfType(kind: string, model: Model, extra: Json): Json {
  return { api: model.api, provider: model.provider, model: model.id, ...extra, stopReason: "error", errorMessage: `pig has no ${kind} models`, timestamp: Date.now() };
}

function notInPig(name: string): never {
  throw new Error(`ctx.modelRegistry.${name} is not available in pig's extension runtime (use pi.registerProvider / pi.unregisterProvider)`);
}

/** pig's model list, kept while the host's `modelsRevision` stays the same. */
class HostModelList {
  private copy: { revision: number | undefined; models: Model[] } | undefined;

  constructor(private readonly runtime: Runtime) {}

  get models(): Model[] {
    const { models, model, modelsRevision } = this.runtime.state.value;
    if (models && models.length > 0) return models;
    if (this.copy && this.copy.revision === modelsRevision) return this.copy.models;
    try {
      const answer = this.runtime.peer.requestSync<{ models: Model[] }>("model.list", {}, LIST_TIMEOUT_MS);
      // An empty list is a host that has no session yet: asked again next time.
      if (answer.models.length > 0) {
        this.copy = { revision: modelsRevision, models: answer.models };
        return answer.models;
      }
    } catch {
      // Not connected (or an older host): the current model is all that is known.
    }
    return model ? [model] : [];
  }

  forget(): void {
    this.copy = undefined;
  }
}

/** One list per runtime: every context's registry shares the copy. */
const lists = new WeakMap<Runtime, HostModelList>();

export function modelRegistry(runtime: Runtime): ModelRegistry {
  const list = lists.get(runtime) ?? new HostModelList(runtime);
  lists.set(runtime, list);
  const all = (): Model[] => [...list.models];
  const kind = (provider: string) => runtime.state.value.credentials?.[provider];
  // A host that does not say which providers have credentials: every model it shows may be called.
  const configured = (model: Model) => (runtime.state.value.credentials ? kind(model.provider) !== undefined : all().some((m) => m.provider === model.provider && m.id === model.id));
  const available = (): Model[] => all().filter(configured);
  const auth = (provider: string, id?: string): Promise<HostAuth> => hostModels()?.auth(provider, id) ?? Promise.resolve({ ok: false, error: NOT_CONNECTED });
  const find = (provider: string, id: string) => list.models.find((m) => m.provider === provider && m.id === id);
  const ofProvider = (models: Model[], provider?: string) => (provider === undefined ? models : models.filter((m) => m.provider === provider));
  return {
    find,
    getAll: all,
    getAvailable: available,
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
    refresh: async () => {
      list.forget();
      void list.models;
      return { aborted: false, errors: new Map<string, Error>() };
    },
    findOfType: (type, provider, id) => (type === "chat" ? find(provider, id) : undefined),
    getModelOfType: (type, provider, id) => (type === "chat" ? find(provider, id) : undefined),
    getModelsOfType: (type, provider) => (type === "chat" ? ofProvider(all(), provider) : []),
    getAvailableOfType: async (type, provider) => (type === "chat" ? ofProvider(available(), provider) : []),
    getProvider: (provider) => {
      const models = ofProvider(all(), provider);
      if (models.length === 0) return undefined;
      return { id: provider, name: provider, ...(models[0]!.baseUrl ? { baseUrl: models[0]!.baseUrl } : {}), getModels: () => [...models] };
    },
    classify: async (model) => noModelsOfType("classifier", model, { answers: {} }),
    generateImages: async (model) => noModelsOfType("image", model, { output: [] }),
    registerProvider: () => notInPig("registerProvider"),
    unregisterProvider: () => notInPig("unregisterProvider"),
    getRegisteredProviderConfig: () => notInPig("getRegisteredProviderConfig"),
    getRegisteredNativeProvider: () => notInPig("getRegisteredNativeProvider"),
    getRegisteredProviderIds: () => notInPig("getRegisteredProviderIds"),
  };
}
