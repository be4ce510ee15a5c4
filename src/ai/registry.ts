/**
 * All models pig knows (built-in plus `models.json`) and how to reach them: which have a key,
 * the key and headers for a request.
 */
import { join } from "node:path";
import { credentialEnv, credentialKind, envKeyNames, findApiKey, hasApiKey, loadAuthFile, resolveConfigValue, type AuthFile, type KeySources } from "./auth.ts";
import { CredentialVars, looksLikeVariableName } from "./credential-vars.ts";
import { BUILTIN_MODELS, PROVIDER_DEFAULT_MODEL, PROVIDER_ORDER } from "./models.ts";
import { applyModelsFile, loadModelsFile, type ModelsFile } from "./models-file.ts";
import { applyProviderConfig, mergeProviderConfig, parseProviderConfig, validateProviderConfig } from "./extension-providers.ts";
import type { ExtensionProviderConfig } from "./extension-providers.ts";
import type { Model, StreamFunction } from "./types.ts";

export interface RegistryOptions {
  agentDir: string;
  env?: NodeJS.ProcessEnv;
}

export class ModelRegistry {
  readonly models: Model[];
  /**
   * What is wrong with `models.json` or `auth.json`, each naming its file: why a file or an
   * entry is not used, and keys pig does not know.
   */
  readonly problems: string[] = [];
  private readonly file: ModelsFile | undefined;
  private auth: AuthFile = {};
  /** `<agentDir>/auth.json`. */
  readonly authPath: string;
  private readonly env: NodeJS.ProcessEnv;
  private cliKey: { provider: string; key: string } | undefined;
  /** Built-in and `models.json` models: what the extensions' providers are applied over. */
  private readonly base: Model[];
  /** Extension providers, in registration order. */
  private readonly extensionProviders = new Map<string, ExtensionProviderConfig>();
  /** API implementations extensions serve, by API name, with the provider that registered each. */
  private readonly apiStreams = new Map<string, { provider: string; stream: StreamFunction }>();

  constructor(options: RegistryOptions) {
    this.env = options.env ?? process.env;
    const modelsPath = join(options.agentDir, "models.json");
    let file: ModelsFile | undefined;
    // Copies: an extension's registration changes the run's models in place, never the catalogue.
    let models = BUILTIN_MODELS.map((m) => ({ ...m }));
    const read = loadModelsFile(modelsPath);
    if (read.error !== undefined) this.problems.push(read.error);
    this.problems.push(...read.warnings);
    try {
      file = read.file;
      if (file) models = applyModelsFile(BUILTIN_MODELS, file, modelsPath);
    } catch (error) {
      file = undefined;
      this.problems.push((error as Error).message);
    }
    this.file = file;
    this.base = models.map((m) => ({ ...m }));
    this.models = models;
    this.authPath = join(options.agentDir, "auth.json");
    const auth = loadAuthFile(this.authPath, this.providers);
    this.auth = auth.auth;
    this.problems.push(...auth.problems.map((p) => `${p.what}; ${p.unused}`), ...auth.warnings);
  }

  /** Reads `auth.json` again (after /login or /logout); entries with a mistake are left out. */
  reloadAuth(): void {
    this.auth = loadAuthFile(this.authPath).auth;
  }

  /** Providers with an entry in `auth.json`. */
  storedAuthProviders(): string[] {
    return Object.keys(this.auth);
  }

  get providers(): Set<string> {
    return new Set(this.models.map((m) => m.provider));
  }

  /** `--api-key`: a key for one provider, for this run only. */
  setRuntimeKey(provider: string, key: string): void {
    this.cliKey = { provider, key };
  }

  /** Where the user's own configuration sends `provider`'s requests (catalogue and models.json). */
  private ownHosts(provider: string): Set<string> {
    return new Set(this.base.filter((m) => m.provider === provider).map((m) => hostOf(m.baseUrl)));
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
    const hosts = new Set(this.models.filter((m) => m.provider === provider).map((m) => hostOf(m.baseUrl)));
    return [...hosts].filter((host) => !own.has(host));
  }

  /** Where `provider`'s models send their requests now. */
  hostsOf(provider: string): string[] {
    return [...new Set(this.models.filter((m) => m.provider === provider).map((m) => hostOf(m.baseUrl)))];
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
    const values: string[] = [];
    const fromHeaders = (headers: Readonly<Record<string, string>> | undefined) => values.push(...Object.values(headers ?? {}));
    for (const config of Object.values(this.file?.providers ?? {})) {
      if (config.apiKey) values.push(config.apiKey);
      fromHeaders(config.headers);
      for (const model of config.models ?? []) fromHeaders(model.headers);
      for (const override of Object.values(config.modelOverrides ?? {})) fromHeaders(override.headers);
    }
    for (const entry of Object.values(this.auth)) if (entry.type === "api_key") values.push(entry.key);
    for (const config of options.withExtensions ? this.extensionProviders.values() : []) {
      if (config.apiKey) values.push(config.apiKey);
      fromHeaders(config.headers);
      for (const model of config.models ?? []) fromHeaders(model.headers);
    }
    return new CredentialVars(values.filter(looksLikeVariableName));
  }

  find(provider: string, id: string): Model | undefined {
    return this.models.find((m) => m.provider === provider && m.id === id);
  }

  hasKey(provider: string): boolean {
    return hasApiKey(provider, this.sources());
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
    return this.models.filter((m) => this.hasKey(m.provider));
  }

  apiKey(model: Model): string | undefined {
    return findApiKey(model.provider, this.sources());
  }

  /** What auth.json stores with `model`'s provider key besides the key (`env`: e.g. Cloudflare's account id). */
  credentialEnv(model: Model): Record<string, string> | undefined {
    return credentialEnv(model.provider, this.auth);
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
    if ((config?.authHeader || fromExtension?.authHeader) && apiKey) out.Authorization = `Bearer ${apiKey}`;
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
    applyProviderConfig(this.models, name, config);
  }

  /** `unregisterProvider(name)`: the models as they were, with the other registrations again. */
  unregisterProvider(name: string): void {
    if (!this.extensionProviders.delete(name)) return;
    for (const [api, entry] of this.apiStreams) if (entry.provider === name) this.apiStreams.delete(api);
    this.models.splice(0, this.models.length, ...this.base.map((m) => ({ ...m })));
    for (const [provider, config] of this.extensionProviders) applyProviderConfig(this.models, provider, config);
  }

  /** The implementation an extension serves for `api`, if one does. */
  apiStream(api: string): StreamFunction | undefined {
    return this.apiStreams.get(api)?.stream;
  }

  /** The model used when nothing names one: each provider's default, then any available model. */
  defaultModel(): Model | undefined {
    const available = this.available();
    for (const provider of PROVIDER_ORDER) {
      const model = available.find((m) => m.provider === provider && m.id === PROVIDER_DEFAULT_MODEL[provider]);
      if (model) return model;
    }
    return available[0];
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
