/**
 * All models pig knows (the catalogue, `models.json`, extensions' providers) and how to reach
 * them: which have a key, the key and headers for a request. A provider's models are built the
 * first time something asks for them (ai/catalogue), so a run that names one provider never
 * parses the others'.
 */
import type { RouteAnswer, RouteRequest } from "./virtual-models.ts";
import { join } from "node:path";
import { credentialEnv, credentialKind, envKeyNames, findApiKey, hasApiKey, keyIsBearerToken, loadAuthFile, resolveConfigValue, type AuthFile, type KeySources } from "./auth.ts";
import { type CredentialVars, looksLikeVariableName } from "./credential-vars.ts";
import { configuredCredentialVars } from "./configured-credentials.ts";
import { catalogueModels, DEFAULT_ORDER, defaultModelOf, isCatalogueProvider, PROVIDERS } from "./catalogue/index.ts";
import { hasLogin } from "./oauth/logins.ts";
import { applyModelsFile, loadModelsFile, MODELS_FILE_IGNORED, type ModelsFile } from "./models-file.ts";
import { applyProviderConfig, mergeProviderConfig, parseProviderConfig, validateProviderConfig } from "./extension-providers.ts";
import type { ExtensionProviderConfig } from "./extension-providers.ts";
import type { Model, StreamFunction } from "./types.ts";

/** Asks a virtual model's router which physical model one request goes to (ai/virtual-models.ts). */
export type VirtualRouter = (request: RouteRequest, signal?: AbortSignal) => Promise<RouteAnswer>;

export interface RegistryOptions {
  agentDir: string;
  env?: NodeJS.ProcessEnv;
}

let listRevisions = 0;

export class ModelRegistry {
  /**
   * What is wrong with `models.json` or `auth.json`, each naming its file: why a file or an
   * entry is not used, and keys pig does not know.
   */
  readonly problems: string[] = [];
  /** Why `models.json` cannot be used ("<path>: <field> (line, column) …"), when it cannot. */
  readonly modelsFileError: string | undefined;
  private readonly file: ModelsFile | undefined;
  private auth: AuthFile = {};
  /** `<agentDir>/auth.json`. */
  readonly authPath: string;
  private readonly env: NodeJS.ProcessEnv;
  private cliKey: { provider: string; key: string } | undefined;
  /** Per provider named in `models.json`: the catalogue's models with the file applied. */
  private readonly fromFile = new Map<string, Model[]>();
  /** Per provider: the models of this run (built on first use; extensions' changes applied in place). */
  private readonly lists = new Map<string, Model[]>();
  /** Every model, provider by provider; rebuilt after a provider's list changes. */
  private everything: Model[] | undefined;
  /** Changes whenever the model list does; numbered across registries, so a new one never repeats an old one's. */
  private listRevision = ++listRevisions;
  /** Extension providers, in registration order. */
  private readonly extensionProviders = new Map<string, ExtensionProviderConfig>();
  /** API implementations extensions serve, by API name, with the provider that registered each. */
  private readonly apiStreams = new Map<string, { provider: string; stream: StreamFunction }>();
  /** Virtual models extensions registered, by provider, then id. */
  private readonly virtualModels = new Map<string, Map<string, Model>>();
  /** Their routers, by `provider/id`. */
  private readonly routers = new Map<string, VirtualRouter>();

  constructor(options: RegistryOptions) {
    this.env = options.env ?? process.env;
    const modelsPath = join(options.agentDir, "models.json");
    let file: ModelsFile | undefined;
    const read = loadModelsFile(modelsPath);
    let fileError = read.error;
    this.problems.push(...read.warnings);
    try {
      file = read.file;
      if (file) {
        // Only the providers the file names are loaded here; checking the file needs them.
        const named = Object.keys(file.providers);
        for (const model of applyModelsFile(named.flatMap(catalogueModels), file, modelsPath)) {
          const list = this.fromFile.get(model.provider) ?? [];
          list.push(model);
          this.fromFile.set(model.provider, list);
        }
      }
    } catch (error) {
      file = undefined;
      this.fromFile.clear();
      fileError = (error as Error).message;
    }
    this.file = file;
    this.modelsFileError = fileError;
    if (fileError !== undefined) this.problems.push(`${fileError}; ${MODELS_FILE_IGNORED}`);
    this.authPath = join(options.agentDir, "auth.json");
    const auth = loadAuthFile(this.authPath, this.providers);
    this.auth = auth.auth;
    this.problems.push(...auth.problems.map((p) => `${p.what}; ${p.unused}`), ...auth.warnings);
  }

  /** Every provider that may have models: the catalogue's, then models.json's, then extensions'. */
  private providerIds(): string[] {
    return [...new Set([...PROVIDERS.map((p) => p.id), ...this.fromFile.keys(), ...this.extensionProviders.keys(), ...this.virtualModels.keys()])];
  }

  /** `provider`'s models before extensions: the catalogue's, with models.json applied. Shared: copy before changing. */
  private baseOf(provider: string): readonly Model[] {
    return this.fromFile.get(provider) ?? catalogueModels(provider);
  }

  /**
   * `provider`'s models in this run: its physical ones, then the virtual models registered under
   * it, each hiding a physical model of the same id (upstream's rule).
   */
  modelsOf(provider: string): Model[] {
    const physical = this.physicalOf(provider);
    const virtual = this.virtualModels.get(provider);
    if (!virtual || virtual.size === 0) return physical;
    return [...physical.filter((m) => !virtual.has(m.id)), ...virtual.values()];
  }

  /** A model a request can be sent to: in the catalogue and not virtual. */
  physicalModel(provider: string, id: string): Model | undefined {
    return this.physicalOf(provider).find((m) => m.id === id);
  }

  /**
   * An extension's `registerVirtualModel`: listed under its provider from now on (again: the new
   * one replaces the old). Refused when the provider has a physical model of that id.
   */
  registerVirtualModel(model: Model, router: VirtualRouter): void {
    if (!model.provider || !model.id) throw new Error("Virtual model provider and id must not be empty.");
    if (this.physicalModel(model.provider, model.id)) throw new Error(`Virtual model ${model.provider}/${model.id} conflicts with a physical model.`);
    const models = this.virtualModels.get(model.provider) ?? new Map<string, Model>();
    models.set(model.id, model);
    this.virtualModels.set(model.provider, models);
    this.routers.set(`${model.provider}/${model.id}`, router);
    this.everything = undefined;
  }

  unregisterVirtualModel(provider: string, id: string): void {
    const models = this.virtualModels.get(provider);
    if (!models?.delete(id)) return;
    if (models.size === 0) this.virtualModels.delete(provider);
    this.routers.delete(`${provider}/${id}`);
    this.everything = undefined;
  }

  /** The router of a registered virtual model. */
  virtualRouter(provider: string, id: string): VirtualRouter | undefined {
    return this.routers.get(`${provider}/${id}`);
  }

  /** A provider that only lists virtual models needs no credentials (upstream marks it configured). */
  private onlyVirtual(provider: string): boolean {
    return this.virtualModels.has(provider) && this.physicalOf(provider).length === 0;
  }

  /** `provider`'s physical models in this run (the live list: extensions' registrations change it in place). */
  private physicalOf(provider: string): Model[] {
    let list = this.lists.get(provider);
    if (!list) {
      list = this.baseOf(provider).map((m) => ({ ...m }));
      const config = this.extensionProviders.get(provider);
      if (config) applyProviderConfig(list, provider, config);
      this.lists.set(provider, list);
    }
    return list;
  }

  /** Every model pig knows, provider by provider (builds every provider's list: for listings and patterns). */
  get models(): Model[] {
    this.everything ??= this.providerIds().flatMap((provider) => this.modelsOf(provider));
    return this.everything;
  }

  /** Which model list this is: another number once an extension's provider changed it. */
  get revision(): number {
    return this.listRevision;
  }

  /** Reads `auth.json` again (after /login or /logout); entries with a mistake are left out. */
  reloadAuth(): void {
    this.auth = loadAuthFile(this.authPath).auth;
  }

  /** What `auth.json` holds for `provider`: an API key, a subscription login, or nothing. */
  storedAuthKind(provider: string): "key" | "oauth" | undefined {
    const entry = this.auth[provider];
    return entry ? (entry.type === "oauth" ? "oauth" : "key") : undefined;
  }

  /** Providers with an entry in `auth.json`. */
  storedAuthProviders(): string[] {
    return Object.keys(this.auth);
  }

  /** Providers with at least one model (catalogue providers always have some). */
  get providers(): Set<string> {
    return new Set(this.providerIds().filter((p) => (isCatalogueProvider(p) && !this.extensionProviders.has(p) && !this.fromFile.has(p)) || this.modelsOf(p).length > 0));
  }

  /** `--api-key`: a key for one provider, for this run only. */
  setRuntimeKey(provider: string, key: string): void {
    this.cliKey = { provider, key };
  }

  /** Where the user's own configuration sends `provider`'s requests (catalogue and models.json). */
  private ownHosts(provider: string): Set<string> {
    return new Set(this.baseOf(provider).map((m) => hostOf(m.baseUrl)));
  }

  /**
   * Hosts the extensions' registrations point `provider`'s models at that the user's own
   * configuration does not, when the user holds credentials for it (auth.json, the environment,
   * `--api-key`, models.json): where pig now sends those credentials. Empty for a provider an
   * extension brought itself.
   */
  foreignHosts(provider: string): string[] {
    const own = this.ownHosts(provider);
    if (own.size === 0 || credentialKind(provider, this.sources({ withExtensions: false })) === undefined) return [];
    const hosts = new Set(this.physicalOf(provider).map((m) => hostOf(m.baseUrl)));
    return [...hosts].filter((host) => !own.has(host));
  }

  /** Where `provider`'s models send their requests now. */
  hostsOf(provider: string): string[] {
    return [...new Set(this.physicalOf(provider).map((m) => hostOf(m.baseUrl)))];
  }

  /**
   * The variable an extension's registration of `provider` takes its key from, when that
   * variable holds the user's key for something else: one of the catalogue's key variables or one
   * the user's models.json or auth.json names (not `provider`'s own variable).
   */
  borrowedKeyVariable(provider: string): string | undefined {
    const key = this.extensionProviders.get(provider)?.apiKey;
    if (!key || !looksLikeVariableName(key) || !this.env[key] || envKeyNames(provider).includes(key)) return undefined;
    return this.namedVars({ withExtensions: false }).isNamed(key) ? key : undefined;
  }

  /** The providers of models that speak `api` for which the user holds credentials. */
  providersWithUserCredentials(api: string): string[] {
    const sources = this.sources({ withExtensions: false });
    const providers = new Set(this.models.filter((m) => m.api === api).map((m) => m.provider));
    return [...providers].filter((provider) => credentialKind(provider, sources) !== undefined);
  }

  private sources(options: { withExtensions: boolean } = { withExtensions: true }): KeySources {
    const configured: Record<string, string | undefined> = {};
    for (const [provider, config] of Object.entries(this.file?.providers ?? {})) configured[provider] = config.apiKey;
    if (options.withExtensions) for (const [provider, config] of this.extensionProviders) if (config.apiKey) configured[provider] = config.apiKey;
    return { auth: this.auth, env: this.env, configured, ...(this.cliKey ? { cliKey: this.cliKey } : {}) };
  }

  /**
   * The credential rule (ai/credential-vars.ts) with every variable a configuration names as a
   * key or a header value: models.json, auth.json and the extensions' providers.
   */
  credentialVars(): CredentialVars {
    return this.namedVars({ withExtensions: true });
  }

  private namedVars(options: { withExtensions: boolean }): CredentialVars {
    return configuredCredentialVars({ file: this.file, auth: this.auth, extensionProviders: options.withExtensions ? this.extensionProviders.values() : [] });
  }

  find(provider: string, id: string): Model | undefined {
    return this.modelsOf(provider).find((m) => m.id === id);
  }

  hasKey(provider: string): boolean {
    return this.onlyVirtual(provider) || hasApiKey(provider, this.sources());
  }

  /** Whether `provider`'s credentials are an API key or an OAuth login (undefined: none). */
  credentialKind(provider: string): "key" | "oauth" | undefined {
    return credentialKind(provider, this.sources());
  }

  /** Every provider of a known model that has credentials, with their kind (names only, never keys). */
  credentialKinds(): Record<string, "key" | "oauth"> {
    const out: Record<string, "key" | "oauth"> = {};
    const sources = this.sources();
    for (const provider of this.providers) {
      const kind = credentialKind(provider, sources);
      if (kind) out[provider] = kind;
    }
    return out;
  }

  /** Models whose provider has a key configured. */
  available(): Model[] {
    const sources = this.sources();
    return this.providerIds().filter((p) => this.onlyVirtual(p) || hasApiKey(p, sources)).flatMap((p) => this.modelsOf(p));
  }

  /** The key as configured now, without renewing a subscription login (requests use `requestAuth`). */
  apiKey(model: Model): string | undefined {
    return findApiKey(model.provider, this.sources());
  }

  /** What auth.json stores with `model`'s provider key besides the key (`env`: e.g. Cloudflare's account id). */
  credentialEnv(model: Model): Record<string, string> | undefined {
    return credentialEnv(model.provider, this.auth);
  }

  /**
   * The credentials of the next request to `model`, awaited before each one: the API key as
   * `findApiKey` finds it, or for a subscription login its access token — renewed first when it
   * is about to expire (ai/oauth/refresh.ts). `secrets` are the login's tokens, for redaction.
   */
  async requestAuth(model: Model, signal?: AbortSignal): Promise<{ apiKey: string | undefined; headers?: Record<string, string>; secrets: string[] }> {
    const sources = this.sources();
    const stored = this.auth[model.provider];
    if (sources.cliKey?.provider !== model.provider && stored?.type === "oauth" && hasLogin(model.provider)) {
      const { usableCredential, requestAuthOf } = await import("./oauth/refresh.ts");
      const credential = await usableCredential(this.authPath, model.provider, stored, signal, this.env);
      this.auth[model.provider] = credential;
      const auth = await requestAuthOf(model.provider, credential);
      return { apiKey: auth.apiKey, ...(auth.headers ? { headers: auth.headers } : {}), secrets: [credential.access, credential.refresh] };
    }
    return { apiKey: findApiKey(model.provider, sources), secrets: [] };
  }

  /**
   * Request headers: the model's, then the provider's from `models.json`, then the model's from
   * `models.json` (values resolved now; a failing `!command` is an error naming the header).
   */
  headers(model: Model, apiKey: string | undefined): Record<string, string> {
    const out: Record<string, string> = { ...model.headers };
    const config = this.file?.providers[model.provider];
    const resolve = (name: string, value: string): string =>
      resolveConfigValue(value, this.env, `header "${name}" for provider "${model.provider}"`);
    for (const [name, value] of Object.entries(config?.headers ?? {})) out[name] = resolve(name, value);
    for (const spec of config?.models ?? []) {
      if (spec.id !== model.id) continue;
      for (const [name, value] of Object.entries(spec.headers ?? {})) out[name] = resolve(name, value);
    }
    const fromExtension = this.extensionProviders.get(model.provider);
    for (const [name, value] of Object.entries(fromExtension?.headers ?? {})) out[name] = resolve(name, value);
    const bearer = config?.authHeader || fromExtension?.authHeader || keyIsBearerToken(model.provider, this.sources());
    if (bearer && apiKey) out.Authorization = `Bearer ${apiKey}`;
    return out;
  }

  /**
   * An extension's `registerProvider(name, config)`: checked as upstream checks it (throws its
   * error texts), merged over an earlier registration of the name, applied to the model list.
   * `stream` serves the config's `api` when the extension registered `streamSimple`.
   */
  registerProvider(name: string, raw: unknown, stream?: StreamFunction): void {
    const config = mergeProviderConfig(this.extensionProviders.get(name), parseProviderConfig(name, raw));
    validateProviderConfig(name, config);
    this.extensionProviders.set(name, config);
    if (stream && config.api) this.apiStreams.set(config.api, { provider: name, stream });
    applyProviderConfig(this.physicalOf(name), name, config);
    this.everything = undefined;
    this.listRevision = ++listRevisions;
  }

  /** `unregisterProvider(name)`: the models as they were, with the other registrations again. */
  unregisterProvider(name: string): void {
    if (!this.extensionProviders.delete(name)) return;
    for (const [api, entry] of this.apiStreams) if (entry.provider === name) this.apiStreams.delete(api);
    this.lists.delete(name);
    this.everything = undefined;
    this.listRevision = ++listRevisions;
  }

  /** The implementation an extension serves for `api`, if one does. */
  apiStream(api: string): StreamFunction | undefined {
    return this.apiStreams.get(api)?.stream;
  }

  /** The model used when nothing names one: each provider's default, then any available model. */
  defaultModel(): Model | undefined {
    const sources = this.sources();
    for (const provider of DEFAULT_ORDER) {
      if (!hasApiKey(provider, sources)) continue;
      const model = this.find(provider, defaultModelOf(provider) ?? "");
      if (model) return model;
    }
    return this.available()[0];
  }
}

/** The host a base URL names (`host:port`), or the text itself when it is not a URL. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
