/**
 * Where API keys come from, in upstream's order: `--api-key`, then `auth.json`, then the
 * provider's environment variable, then `models.json`. `models.json` values may name an
 * environment variable or, with a leading `!`, a shell command whose output is the key.
 */
import * as v from "valibot";
import { builtOnce } from "../util/built-once.ts";
import { closestName } from "../util/closest.ts";
import { checkConfig, joinIssues, notObjectWords } from "../util/config-issues.ts";
import { readConfigText } from "../util/config-read.ts";
import { withFileLock } from "../util/file-lock.ts";
import { JsonPlaces, parseJsonc } from "../util/jsonc.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { privateFileTarget, writePrivateJson } from "../util/private-file.ts";
import { ambientHint, ambientKey } from "./ambient-credentials.ts";
import { providerFacts } from "./catalogue/index.ts";

// Other programs sharing the file (upstream's subscription logins) keep provider-specific fields
// in OAuth entries: open to any key. An API-key entry has its key and, for some providers, `env`.
// Built when an auth.json is there to check.
const authEntrySchema = builtOnce(() =>
  v.variant("type", [
    // `env`: values the provider needs besides the key (Cloudflare's account and gateway ids), as upstream stores them.
    v.looseObject({ type: v.literal("api_key"), key: v.string(), env: v.optional(v.record(v.string(), v.string())) }),
    v.objectWithRest(
      { type: v.literal("oauth"), access: v.optional(v.string()), refresh: v.optional(v.string()), expires: v.optional(v.number()) },
      v.unknown(),
    ),
  ]),
);
const authFileSchema = builtOnce(() => v.record(v.string(), authEntrySchema()));
export type AuthFile = v.InferOutput<ReturnType<typeof authFileSchema>>;

export class AuthFileError extends Error {}

export interface AuthProblem {
  /** What is wrong, naming the file and the place. */
  what: string;
  /** What pig leaves out because of it: the whole file, or one entry. */
  unused: string;
}

export interface AuthRead {
  /** The usable entries; an entry with a mistake is left out. */
  auth: AuthFile;
  problems: AuthProblem[];
  /** Keys pig does not know inside entries (the entries are used). */
  warnings: string[];
}

/**
 * Reads `auth.json`, as strict JSON: pig rewrites it whole when it stores a key, which would drop
 * comments. A missing file is empty; an entry with a mistake is left out and named.
 */
export function loadAuthFile(path: string, knownProviders?: ReadonlySet<string>): AuthRead {
  const read = readConfigText(path);
  if (read.kind === "absent") return { auth: {}, problems: [], warnings: [] };
  const whole = (what: string): AuthRead => ({ auth: {}, problems: [{ what: `${path}: ${what}`, unused: "no key from it is used for this run" }], warnings: [] });
  if (read.kind === "unreadable") return whole(read.reason);
  let raw: unknown;
  try {
    raw = parseJsonc(read.text, { strict: true });
  } catch (error) {
    return whole(`not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(raw)) {
    return whole(`expected a JSON object of providers ({"openai": {"type": "api_key", "key": "…"}}), not ${notObjectWords(raw)}`);
  }
  const checked = checkConfig(authFileSchema(), raw, read.text);
  const warnings = checked.unknownKeys.map((words) => `${path}: ${words}; pig ignores it`);
  // Entries of providers pig does not know are other programs' (upstream's subscription logins):
  // only one that looks like a slip of the keyboard for a known provider is worth a word.
  const places = new JsonPlaces(read.text);
  for (const provider of knownProviders ? Object.keys(raw) : []) {
    if (knownProviders!.has(provider)) continue;
    const guess = closestName(provider, knownProviders!);
    if (!guess) continue;
    const place = places.placeOf([provider], "key");
    warnings.push(`${path}: "${provider}"${place ? ` (${place})` : ""} is not a provider pig knows (did you mean "${guess}"?); its key is not used`);
  }
  if (checked.success) return { auth: checked.output, problems: [], warnings };
  const broken = new Set(checked.issues.map((issue) => String(issue.path[0])));
  const auth: AuthFile = {};
  for (const [provider, entry] of Object.entries(raw)) {
    const one = v.safeParse(authEntrySchema(), entry);
    if (one.success && !broken.has(provider)) auth[provider] = one.output;
  }
  const problems = [...broken].map((provider) => {
    const issues = checked.issues.filter((issue) => String(issue.path[0]) === provider);
    return { what: `${path}: ${joinIssues(issues)}`, unused: `the "${provider}" entry is not used for this run` };
  });
  return { auth, problems, warnings };
}

/** Reads `auth.json` for a change: any problem is an error naming the file (nothing is written then). */
export function readAuthFile(path: string): AuthFile {
  const read = loadAuthFile(path);
  if (read.problems.length > 0) {
    const what = read.problems.map((problem) => problem.what).join("; ");
    throw new AuthFileError(`${what}; pig does not rewrite a file it could not fully read, so fix it first`);
  }
  return read.auth;
}

/**
 * Changes `auth.json` under its lock: read, change, write whole through a temp file (mode 0600,
 * directory 0700), so neither another pig's change nor a reader sees half a file. A symlinked
 * file is written where the link points. A file with any mistake is left as it is.
 */
function updateAuthFile<T>(path: string, change: (auth: AuthFile) => T): T {
  const target = authTarget(path);
  return withFileLock(
    target,
    () => {
      const auth = readAuthFile(target);
      const result = change(auth);
      writeAuthFile(target, auth);
      return result;
    },
    { staleMs: AUTH_LOCK_STALE_MS },
  );
}

/**
 * A token refresh holds the lock for as long as the token endpoint takes (its limit is 15 s): a
 * lock is taken over by age only well after that. A dead holder's lock is taken over at once.
 */
export const AUTH_LOCK_STALE_MS = 60_000;

/** The file to lock and write: where a symlinked auth.json points; its folder made (0700). */
export function authTarget(path: string): string {
  return privateFileTarget(path);
}

/** Writes `auth` whole through a temp file (mode 0600) renamed over `target`; the caller holds the lock. */
export function writeAuthFile(target: string, auth: AuthFile): void {
  writePrivateJson(target, auth);
}

/**
 * Stores an API key for `provider` in `auth.json`, keeping every other entry. `env` (values the
 * provider needs besides the key) replaces the entry's; without it, the entry's own are kept.
 */
export function saveApiKey(path: string, provider: string, key: string, env?: Record<string, string>): void {
  updateAuthFile(path, (auth) => {
    const old = auth[provider];
    const kept = env ?? (old?.type === "api_key" ? old.env : undefined);
    auth[provider] = { type: "api_key", key, ...(kept ? { env: kept } : {}) };
  });
}

/** The values stored with `provider`'s API key besides the key itself (auth.json `env`). */
export function credentialEnv(provider: string, auth: AuthFile): Record<string, string> | undefined {
  const entry = auth[provider];
  return entry?.type === "api_key" ? entry.env : undefined;
}

/**
 * Stores a subscription login for `provider` (upstream's OAuth entry: `type`, `access`,
 * `refresh`, `expires` and the provider's own fields), replacing whatever it had.
 */
export function saveOAuthCredential(path: string, provider: string, credential: { type: "oauth"; access: string; refresh: string; expires: number }): void {
  updateAuthFile(path, (auth) => {
    auth[provider] = { ...credential };
  });
}

/** Removes `provider`'s entry from `auth.json`; false when it had none. */
export function removeAuthEntry(path: string, provider: string): boolean {
  return updateAuthFile(path, (auth) => {
    if (!Object.hasOwn(auth, provider)) return false;
    delete auth[provider];
    return true;
  });
}

/**
 * A configured value: `!command` runs the command (10 s limit) and takes its trimmed output;
 * otherwise the value names an environment variable, or is the literal value itself. A command
 * that fails, times out or prints nothing is an error naming `what` it was for and the command.
 */
export function resolveConfigValue(value: string, env: NodeJS.ProcessEnv, what: string): string {
  if (value.startsWith("!")) {
    const command = value.slice(1);
    const proc = Bun.spawnSync(["/bin/sh", "-c", command], { stdout: "pipe", stderr: "pipe", timeout: 10_000, env });
    const out = proc.exitCode === 0 ? proc.stdout.toString().trim() : "";
    if (!out) throw new Error(`Failed to resolve ${what} from shell command: ${command}`);
    return out;
  }
  return env[value] || value;
}

export interface KeySources {
  /** `--api-key`, for the selected model's provider. */
  cliKey?: { provider: string; key: string };
  auth: AuthFile;
  env: NodeJS.ProcessEnv;
  /** `models.json` apiKey per provider. */
  configured: Record<string, string | undefined>;
}

/** The environment variables for a provider's key; `<PROVIDER>_API_KEY` for providers pig does not know. */
export function envKeyNames(provider: string): readonly string[] {
  return providerFacts(provider)?.envKeys ?? [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`];
}

/**
 * A variable whose token goes in `Authorization: Bearer` instead of the provider's own key
 * header (a gateway in front of the provider takes it): `ANTHROPIC_AUTH_TOKEN`.
 */
export const BEARER_TOKEN_VARS: Readonly<Record<string, string>> = { anthropic: "ANTHROPIC_AUTH_TOKEN" };

/** Whether `provider`'s key comes from its bearer-token variable (see BEARER_TOKEN_VARS) for these sources. */
export function keyIsBearerToken(provider: string, sources: KeySources): boolean {
  const variable = BEARER_TOKEN_VARS[provider];
  if (!variable || !sources.env[variable] || sources.cliKey?.provider === provider) return false;
  return sources.auth[provider] === undefined;
}

/**
 * The key for `provider`, or undefined. A `!command` key runs now, on every call, as upstream
 * does per request; when it fails the error says so, naming the provider and the command.
 */
export function findApiKey(provider: string, sources: KeySources): string | undefined {
  if (sources.cliKey?.provider === provider) return sources.cliKey.key;
  const resolve = (value: string): string => resolveConfigValue(value, sources.env, `API key for provider "${provider}"`);
  const stored = sources.auth[provider];
  if (stored?.type === "api_key" && stored.key) return resolve(stored.key);
  if (stored?.type === "oauth" && typeof stored.access === "string" && (stored.expires === undefined || Date.now() < stored.expires)) {
    return stored.access;
  }
  for (const name of envKeyNames(provider)) {
    const value = sources.env[name];
    if (value) return value;
  }
  const configured = sources.configured[provider];
  return configured ? resolve(configured) : ambientKey(provider, sources.env);
}

/** Whether a key could be found without running any command (for listing available models). */
export function hasApiKey(provider: string, sources: KeySources): boolean {
  return credentialKind(provider, sources) !== undefined;
}

/**
 * What kind of credentials `provider` has, read as `hasApiKey` reads them (no command runs): an
 * OAuth login (an `auth.json` OAuth entry, or a token variable such as `ANTHROPIC_OAUTH_TOKEN`),
 * an API key, or none.
 */
export function credentialKind(provider: string, sources: KeySources): "key" | "oauth" | undefined {
  if (sources.cliKey?.provider === provider) return "key";
  const stored = sources.auth[provider];
  if (stored) return stored.type === "oauth" ? "oauth" : "key";
  const variable = envKeyNames(provider).find((name) => sources.env[name]);
  if (variable) return /OAUTH/.test(variable) ? "oauth" : "key";
  return sources.configured[provider] || ambientKey(provider, sources.env) ? "key" : undefined;
}

/** The message for a run with no model at all: the variables to set, and the models.json way. */
export function noModelsMessage(modelsJsonPath: string, options: { fromListModels?: boolean } = {}): string {
  const examples = ["anthropic", "openai", "google", "openrouter", "groq"].map((p) => `  ${envKeyNames(p).at(-1)} (${p})`);
  return [
    "No models available.",
    "",
    "Set the API key of a provider, for example:",
    ...examples,
    "sign in with a subscription (Claude Pro/Max, ChatGPT Plus/Pro, GitHub Copilot, …): `pig login`,",
    `or add a provider (a local server, any OpenAI-compatible endpoint) to ${modelsJsonPath}.`,
    options.fromListModels
      ? "Run `pig` in a terminal for a guided setup."
      : "`pig --list-models` shows what is available; run `pig` in a terminal for a guided setup.",
  ].join("\n");
}

/** The message for a provider without a key: which variable to set, and the models.json way. */
export function missingKeyMessage(provider: string): string {
  const facts = providerFacts(provider);
  const ambient = ambientHint(provider);
  const variable = envKeyNames(provider).at(-1);
  const ways = [
    ...(facts?.subscriptionLogin ? [`sign in with /login ${provider} (or \`pig login ${provider}\`)`] : []),
    ...(ambient ? [ambient.replace(/\.$/, "")] : variable ? [`set ${variable}`] : []),
    ...(facts?.apiKeyLogin || !facts ? ["pass --api-key", 'configure "apiKey" for the provider in models.json'] : []),
  ];
  const said = ways.length > 1 ? `${ways.slice(0, -1).join(", ")}, or ${ways.at(-1)}` : ways[0]!;
  return `No API key found for ${provider}.\n\n${said[0]!.toUpperCase()}${said.slice(1)}.`;
}

/** The answer to an extension asking for a model of a provider without credentials: how to add them. */
export function noCredentialsMessage(provider: string): string {
  const variable = envKeyNames(provider).at(-1);
  const first = variable ? `set ${variable}, ` : "";
  const login = providerFacts(provider)?.subscriptionLogin ? "sign in or store a key with /login" : "store a key with /login";
  return `No credentials for provider "${provider}" in pig (${first}${login}, or give the provider an "apiKey" in models.json)`;
}
