/**
 * First run: no model can be used because no provider has a key. Offers signing in with an
 * account (a subscription login, stored in `<agentDir>/auth.json`), the usual providers
 * (the key goes to `<agentDir>/auth.json`, mode 0600), an Ollama or LM Studio server found on
 * this machine, or any OpenAI-compatible URL (both written as a provider in
 * `<agentDir>/models.json`, with the models the server lists). Returns what was chosen, or
 * undefined when the person backed out or nothing could be saved.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import * as v from "valibot";
import { envKeyNames, saveApiKey } from "../../ai/auth.ts";
import { catalogueModels, defaultModelOf, isCatalogueProvider } from "../../ai/catalogue/index.ts";
import { applyModelsFile, loadModelsFile, readModelsFile } from "../../ai/models-file.ts";
import type { ModelRegistry } from "../../ai/registry.ts";
import type { Model } from "../../ai/types.ts";
import { connectionFailure, type ConnectionFailure } from "../../ai/connection-error.ts";
import { writeFileAtomic } from "../../resources/settings-store.ts";
import { parseJsonc } from "../../util/jsonc.ts";
import type { InteractiveHost } from "./host.ts";
import { isPlainObject } from "../../util/plain-object.ts";
import type { SubscriptionLogin } from "../../ai/oauth/types.ts";
import type { LoginSurface } from "./login/login-io.ts";
import { signInWith } from "./login/sign-in.ts";
import type { SubscriptionLogins } from "./login/subscriptions.ts";

export interface WizardDeps extends Pick<InteractiveHost, "ask" | "pick" | "confirm" | "print"> {
  agentDir: string;
  /** For the models of a cloud provider (built-ins and models.json changes); built-ins without it. */
  registry?: ModelRegistry;
  /** Injectable for tests. */
  fetch?: (url: string, init: { signal: AbortSignal; headers?: Record<string, string> }) => Promise<Response>;
  /** How long a local server may take to answer the probe (default 500 ms). */
  probeTimeoutMs?: number;
  /** The subscription logins offered first ("Sign in with an account"); none without it. */
  subscriptions?: SubscriptionLogins;
  /** Runs a sign-in with a controller Escape aborts while no dialog is open (none without it). */
  cancellable?: <T>(run: (cancel: AbortController) => Promise<T>) => Promise<T>;
  /** Whether the terminal shows OSC 8 links (for the sign-in page). */
  hyperlinks?: boolean;
}

export interface WizardResult {
  provider: string;
  model?: string;
}

interface CloudProvider {
  id: string;
  label: string;
  keyPage: string;
}

const CLOUD: readonly CloudProvider[] = [
  { id: "anthropic", label: "Anthropic (Claude)", keyPage: "https://console.anthropic.com/settings/keys" },
  { id: "openai", label: "OpenAI", keyPage: "https://platform.openai.com/api-keys" },
  { id: "openrouter", label: "OpenRouter (many vendors, one key)", keyPage: "https://openrouter.ai/keys" },
  { id: "google", label: "Google (Gemini)", keyPage: "https://aistudio.google.com/apikey" },
  { id: "groq", label: "Groq", keyPage: "https://console.groq.com/keys" },
];

interface LocalServer {
  provider: string;
  label: string;
  /** What pig talks to (OpenAI-compatible). */
  baseUrl: string;
  /** Only loopback addresses are ever probed without being asked to. */
  probeUrl: string;
  parse(body: unknown): string[] | undefined;
  /** Placeholder key: models.json requires one for a custom provider, these servers ignore it. */
  apiKey: string;
}

const OpenAiModels = v.object({ data: v.array(v.object({ id: v.string() })) });
const OllamaTags = v.object({ models: v.array(v.object({ name: v.string() })) });

function openAiIds(body: unknown): string[] | undefined {
  const parsed = v.safeParse(OpenAiModels, body);
  return parsed.success ? parsed.output.data.map((m) => m.id) : undefined;
}

export const LOCAL_SERVERS: readonly LocalServer[] = [
  {
    provider: "ollama",
    label: "Ollama",
    baseUrl: "http://127.0.0.1:11434/v1",
    probeUrl: "http://127.0.0.1:11434/api/tags",
    parse(body) {
      const parsed = v.safeParse(OllamaTags, body);
      return parsed.success ? parsed.output.models.map((m) => m.name) : undefined;
    },
    apiKey: "ollama",
  },
  {
    provider: "lmstudio",
    label: "LM Studio",
    baseUrl: "http://127.0.0.1:1234/v1",
    probeUrl: "http://127.0.0.1:1234/v1/models",
    parse: openAiIds,
    apiKey: "lm-studio",
  },
];

type Fetch = NonNullable<WizardDeps["fetch"]>;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * fetch, except that plain-http requests to this machine go out directly through node:http:
 * Bun's fetch sends even loopback requests through HTTP_PROXY, and a probe of local servers
 * must never leave the machine.
 */
export const localFetch: Fetch = async (url, init) => {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" || !LOOPBACK.has(parsed.hostname)) return fetch(url, init);
  // Loaded here: node:http is only needed by the first-run setup, not by every start.
  const { get: httpGet } = await import("node:http");
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { signal: init.signal, ...(init.headers ? { headers: init.headers } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const status = response.statusCode ?? 500;
        // A Response refuses a body for these statuses, and there is nothing to read anyway.
        const empty = status === 204 || status === 205 || status === 304;
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status }));
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
};

/** What a GET brought: a JSON body, an answer that is not one (its status), or no answer at all (why). */
type Fetched = { kind: "json"; body: unknown } | { kind: "answered"; status: number } | { kind: "unreachable"; failure: ConnectionFailure };

async function fetchJson(fetchFn: Fetch, url: string, timeoutMs: number, key?: string): Promise<Fetched> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(key ? { headers: { Authorization: `Bearer ${key}` } } : {}),
    });
  } catch (error) {
    return { kind: "unreachable", failure: connectionFailure(error) };
  }
  if (!response.ok) return { kind: "answered", status: response.status };
  try {
    return { kind: "json", body: (await response.json()) as unknown };
  } catch {
    return { kind: "answered", status: response.status };
  }
}

/** The JSON body of `url`, or undefined when it does not answer in time or is not JSON. */
async function getJson(fetchFn: Fetch, url: string, timeoutMs: number, key?: string): Promise<unknown> {
  const fetched = await fetchJson(fetchFn, url, timeoutMs, key);
  return fetched.kind === "json" ? fetched.body : undefined;
}

interface Found {
  server: LocalServer;
  models: string[];
}

export async function probeLocalServers(fetchFn: Fetch, timeoutMs: number): Promise<Found[]> {
  const found = await Promise.all(
    LOCAL_SERVERS.map(async (server) => {
      const models = server.parse(await getJson(fetchFn, server.probeUrl, timeoutMs));
      return models ? { server, models } : undefined;
    }),
  );
  return found.filter((f): f is Found => f !== undefined);
}

// ── models.json ─────────────────────────────────────────────────────────────


export interface ProviderEntry {
  baseUrl: string;
  api: "openai-completions";
  apiKey: string;
  models: { id: string }[];
}

/**
 * Adds (or replaces) `providers.<name>` in models.json, editing the text so comments and other
 * providers stay as they are. A file that does not parse is left alone: the error says why and
 * what to add by hand. Returns whether the file now holds the provider.
 */
export function writeProvider(path: string, name: string, entry: ProviderEntry, print: (text: string) => void): boolean {
  const snippet = JSON.stringify({ providers: { [name]: entry } }, null, 2);
  let text = "{}\n";
  if (existsSync(path)) {
    try {
      text = readFileSync(path, "utf8");
      if (!text.trim()) text = "{}\n";
      const current = parseJsonc(text);
      if (!isPlainObject(current)) throw new Error("it does not hold a JSON object");
      if (current.providers !== undefined && !isPlainObject(current.providers)) throw new Error('"providers" is not an object');
    } catch (error) {
      print(`${path} could not be read (${(error as Error).message}), so pig left it unchanged. Add this to it by hand:\n${snippet}`);
      return false;
    }
    // A file with a mistake is the person's to fix: an edit now would mix pig's lines into it.
    const fault = loadModelsFile(path).error;
    if (fault !== undefined) {
      print(`${fault}\nFix it first; pig left the file unchanged. Then add this to it:\n${snippet}`);
      return false;
    }
  }
  const edits = modify(text, ["providers", name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } });
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, applyEdits(text, edits));
  } catch (error) {
    print(`Could not write ${path} (${(error as Error).message}). Add this to it by hand:\n${snippet}`);
    return false;
  }
  // Written, but the registry ignores a models.json with any mistake: say so now, not later.
  try {
    const file = readModelsFile(path);
    if (file) applyModelsFile(Object.keys(file.providers).flatMap(catalogueModels), file, path);
  } catch (error) {
    print(`Saved, but ${path} has a problem pig will report on every start:\n${(error as Error).message}`);
  }
  return true;
}

function existingProvider(path: string, name: string): boolean {
  try {
    return Boolean(readModelsFile(path)?.providers[name]);
  } catch {
    return false;
  }
}

// ── the steps ───────────────────────────────────────────────────────────────

type Step = WizardResult | "back" | undefined;

async function chooseModel(deps: WizardDeps, ids: readonly string[], initial?: string): Promise<string | undefined> {
  if (ids.length <= 1) return ids[0];
  return deps.pick(
    "Model",
    ids.map((id) => ({ value: id, label: id, ...(id === initial ? { hint: "recommended" } : {}) })),
    { search: ids.length > 10, ...(initial && ids.includes(initial) ? { initial } : {}) },
  );
}

async function cloudStep(deps: WizardDeps, provider: CloudProvider): Promise<Step> {
  deps.print(`Create a key at ${provider.keyPage}`);
  const key = (await deps.ask(`${provider.label} API key`, { mask: true }))?.trim();
  if (!key) return "back";
  const authPath = join(deps.agentDir, "auth.json");
  try {
    saveApiKey(authPath, provider.id, key);
  } catch (error) {
    deps.print(`Could not save the key: ${(error as Error).message}`);
    return undefined;
  }
  deps.print(`Saved the key in ${authPath}.`);
  const models: readonly Model[] = deps.registry?.modelsOf(provider.id) ?? catalogueModels(provider.id);
  const ids = models.map((m) => m.id);
  const model = await chooseModel(deps, ids, defaultModelOf(provider.id));
  return { provider: provider.id, ...(model ? { model } : {}) };
}

async function saveLocal(deps: WizardDeps, name: string, entry: ProviderEntry): Promise<boolean> {
  const path = join(deps.agentDir, "models.json");
  if (existingProvider(path, name) && !(await deps.confirm(`models.json already has a provider "${name}". Replace it?`, false))) return false;
  if (!writeProvider(path, name, entry, deps.print)) return false;
  deps.print(`Added provider "${name}" with ${entry.models.length} model${entry.models.length === 1 ? "" : "s"} to ${path}.`);
  return true;
}

async function localStep(deps: WizardDeps, found: Found): Promise<Step> {
  const { server, models } = found;
  if (models.length === 0) {
    deps.print(`${server.label} is running but has no models yet. Download one there, then choose it again.`);
    return "back";
  }
  const entry: ProviderEntry = { baseUrl: server.baseUrl, api: "openai-completions", apiKey: server.apiKey, models: models.map((id) => ({ id })) };
  if (!(await saveLocal(deps, server.provider, entry))) return undefined;
  const model = await chooseModel(deps, models);
  return { provider: server.provider, ...(model ? { model } : {}) };
}

const NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/** The server's URL, without trailing slashes; undefined when the person backed out. */
async function askServerUrl(deps: WizardDeps, previous?: string): Promise<string | undefined> {
  for (;;) {
    const url = (
      await deps.ask("Server URL (OpenAI-compatible)", previous ? { initial: previous } : { placeholder: "http://localhost:8000/v1" })
    )
      ?.trim()
      .replace(/\/+$/, "");
    if (!url) return undefined;
    if (/^https?:\/\/[^/\s]+/i.test(url)) return url;
    deps.print(`"${url}" is not an http(s) URL.`);
  }
}

type Listing = { kind: "models"; ids: string[]; baseUrl: string } | { kind: "unlisted"; status?: number } | { kind: "unreachable"; failure: ConnectionFailure };

/** The models `url` lists, under `/models` or `/v1/models` (the URL may be given with or without its /v1). */
async function listServerModels(fetchFn: Fetch, url: string, key: string): Promise<Listing> {
  const first = await fetchJson(fetchFn, `${url}/models`, 5000, key);
  if (first.kind === "unreachable") return first;
  const ids = first.kind === "json" ? openAiIds(first.body) : undefined;
  if (ids && ids.length > 0) return { kind: "models", ids, baseUrl: url };
  if (!/\/v1$/.test(url)) {
    const second = await fetchJson(fetchFn, `${url}/v1/models`, 5000, key);
    const more = second.kind === "json" ? openAiIds(second.body) : undefined;
    if (more && more.length > 0) return { kind: "models", ids: more, baseUrl: `${url}/v1` };
  }
  return first.kind === "answered" ? { kind: "unlisted", status: first.status } : { kind: "unlisted" };
}

type Unreachable = "url" | "again" | "back";

async function customStep(deps: WizardDeps, fetchFn: Fetch): Promise<Step> {
  let url = await askServerUrl(deps);
  if (!url) return "back";
  let name: string | undefined;
  for (;;) {
    name = (await deps.ask("A name for this provider", { initial: "custom" }))?.trim();
    if (!name) return "back";
    if (!NAME.test(name)) deps.print("Use letters, digits, '.', '-' or '_'.");
    else if (isCatalogueProvider(name)) deps.print(`"${name}" is a built-in provider; choose another name.`);
    else break;
  }
  const key = (await deps.ask("API key (leave empty if the server needs none)", { mask: true }))?.trim();
  if (key === undefined) return "back";

  let listing = await listServerModels(fetchFn, url, key);
  // No connection is not "no models": say why, and let the URL be changed or the server started.
  while (listing.kind === "unreachable") {
    deps.print(`Could not connect to ${url}: ${listing.failure.words}.`);
    const next = await deps.pick<Unreachable>("What now?", [
      { value: "url", label: "Change the URL" },
      { value: "again", label: "Try again", hint: "once the server is running" },
      { value: "back", label: "Back to the providers" },
    ]);
    if (next === undefined || next === "back") return "back";
    if (next === "url") {
      const changed = await askServerUrl(deps, url);
      if (!changed) return "back";
      url = changed;
    }
    listing = await listServerModels(fetchFn, url, key);
  }
  let ids: string[];
  let baseUrl = url;
  if (listing.kind === "models") {
    ids = listing.ids;
    baseUrl = listing.baseUrl;
  } else {
    const answered = listing.status === 401 || listing.status === 403 ? ` (it answered ${listing.status}: check the key)` : listing.status ? ` (it answered ${listing.status})` : "";
    deps.print(`${url} answered but did not list any models${answered}.`);
    const id = (await deps.ask("Model id to use"))?.trim();
    if (!id) return "back";
    ids = [id];
  }
  if (key) {
    try {
      saveApiKey(join(deps.agentDir, "auth.json"), name, key);
    } catch (error) {
      deps.print(`Could not save the key: ${(error as Error).message}`);
      return undefined;
    }
  }
  // The key itself stays in auth.json (0600); models.json names the variable that could also hold it.
  const entry: ProviderEntry = { baseUrl, api: "openai-completions", apiKey: key ? envKeyNames(name)[0]! : "none", models: ids.map((id) => ({ id })) };
  if (!(await saveLocal(deps, name, entry))) return undefined;
  const model = await chooseModel(deps, ids);
  return { provider: name, ...(model ? { model } : {}) };
}

async function accountStep(deps: WizardDeps, subscriptions: SubscriptionLogins): Promise<Step> {
  const logins = subscriptions.list();
  const login = await deps.pick<SubscriptionLogin>(
    "Sign in with which account?",
    logins.map((l) => ({ value: l, label: l.name, hint: l.provider })),
  );
  if (!login) return "back";
  const authPath = join(deps.agentDir, "auth.json");
  const surface: LoginSurface = { ask: (m, c) => deps.ask(m, c), pick: (m, o, c) => deps.pick(m, o, c), print: deps.print };
  deps.print(`Signing in to ${login.name} (${login.provider}). Escape cancels.`);
  const run = (cancel: AbortController) => signInWith(login, { subscriptions, surface, authPath, cancel, hyperlinks: deps.hyperlinks ?? false });
  const outcome = deps.cancellable ? await deps.cancellable(run) : await run(new AbortController());
  if (outcome.kind === "cancelled") {
    deps.print(`Sign-in to ${login.name} cancelled; nothing was stored.`);
    return "back";
  }
  if (outcome.kind === "failed") {
    deps.print(`Could not sign in to ${login.name} (${login.provider}): ${outcome.message}`);
    return "back";
  }
  deps.print(`Signed in to ${login.name}; saved in ${authPath}.`);
  const models: readonly Model[] = deps.registry?.modelsOf(login.provider) ?? catalogueModels(login.provider);
  const ids = models.map((m) => m.id);
  if (ids.length === 0) deps.print(`pig knows no ${login.provider} models yet; models.json can add them.`);
  const model = await chooseModel(deps, ids, defaultModelOf(login.provider));
  return { provider: login.provider, ...(model ? { model } : {}) };
}

/** The first few accounts by name: the hint stays one line. */
function accountsHint(accounts: readonly SubscriptionLogin[]): string {
  const names = accounts.slice(0, 3).map((a) => a.name);
  return accounts.length > 3 ? `${names.join(", ")}, …` : names.join(", ");
}

type Choice = { kind: "account" } | { kind: "cloud"; provider: CloudProvider } | { kind: "local"; found: Found } | { kind: "custom" };

export async function runFirstRunWizard(deps: WizardDeps): Promise<WizardResult | undefined> {
  const fetchFn: Fetch = deps.fetch ?? localFetch;
  deps.print("No model is set up yet: choose a provider to use.");
  const found = await probeLocalServers(fetchFn, deps.probeTimeoutMs ?? 500);
  const accounts = deps.subscriptions?.list() ?? [];
  for (;;) {
    const options = [
      ...(accounts.length > 0
        ? [{ value: { kind: "account" } as Choice, label: "Sign in with an account (subscription)…", hint: accountsHint(accounts) }]
        : []),
      ...CLOUD.map((provider) => ({ value: { kind: "cloud", provider } as Choice, label: provider.label, hint: "API key" })),
      ...found.map((f) => ({
        value: { kind: "local", found: f } as Choice,
        label: `${f.server.label} on this machine`,
        hint: `${f.models.length} model${f.models.length === 1 ? "" : "s"}`,
      })),
      { value: { kind: "custom" } as Choice, label: "Another OpenAI-compatible server (URL)…" },
    ];
    const choice = await deps.pick("Provider", options);
    if (!choice) return undefined;
    const step =
      choice.kind === "account"
        ? await accountStep(deps, deps.subscriptions!)
        : choice.kind === "cloud"
          ? await cloudStep(deps, choice.provider)
          : choice.kind === "local"
            ? await localStep(deps, choice.found)
            : await customStep(deps, fetchFn);
    if (step !== "back") return step;
  }
}
