/**
 * Where each login talks to. Every URL (and the loopback callback port) has the provider's real
 * value as its default; `PIG_OAUTH_ENDPOINTS` may name a JSON file that overrides any of them per
 * provider — for a self-hosted gateway, a proxy, or a test's fake authorization server:
 *
 *   { "anthropic": { "token": "http://127.0.0.1:8080/v1/oauth/token", "callbackPort": 0 } }
 *
 * The file is read when a login or a refresh needs it (both are rare), and checked whole: a key
 * that is not a provider's endpoint, or a value of the wrong type, is an error naming the file
 * and the key, so a typo never silently sends a token to the real service.
 */
import * as v from "valibot";
import { readConfigText } from "../../util/config-read.ts";
import { isPlainObject } from "../../util/plain-object.ts";

export const ENDPOINTS_VARIABLE = "PIG_OAUTH_ENDPOINTS";

export type EndpointDefaults = Readonly<Record<string, string | number>>;

export class EndpointConfigError extends Error {
  override name = "EndpointConfigError";
}

const OverridesSchema = v.record(v.string(), v.record(v.string(), v.union([v.string(), v.number()])));

/** The overrides file's content, or undefined when the variable is unset. */
function readOverrides(env: NodeJS.ProcessEnv): { path: string; overrides: v.InferOutput<typeof OverridesSchema> } | undefined {
  const path = env[ENDPOINTS_VARIABLE];
  if (!path) return undefined;
  const read = readConfigText(path);
  if (read.kind === "absent") throw new EndpointConfigError(`${path} (named by ${ENDPOINTS_VARIABLE}) does not exist`);
  if (read.kind === "unreadable") throw new EndpointConfigError(`${path} (named by ${ENDPOINTS_VARIABLE}): ${read.reason}`);
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (error) {
    throw new EndpointConfigError(`${path} (named by ${ENDPOINTS_VARIABLE}): not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(raw)) throw new EndpointConfigError(`${path} (named by ${ENDPOINTS_VARIABLE}): must be an object of providers ({"anthropic": {"token": "http://…"}})`);
  const parsed = v.safeParse(OverridesSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((step) => String(step.key)).join(".") ?? "";
    const expected = where.includes(".") ? "a string (a URL) or a number (a port)" : "an object of endpoints";
    throw new EndpointConfigError(`${path} (named by ${ENDPOINTS_VARIABLE}): ${where ? `"${where}" ` : ""}must be ${expected}`);
  }
  return { path, overrides: parsed.output };
}

/**
 * `defaults` with the overrides for `provider` from the file `PIG_OAUTH_ENDPOINTS` names.
 * `known` lists every provider with a login, so a misspelt provider in the file is named too.
 */
export function endpointsFor<T extends EndpointDefaults>(provider: string, defaults: T, env: NodeJS.ProcessEnv, known: readonly string[]): T {
  const read = readOverrides(env);
  if (!read) return defaults;
  const where = `${read.path} (named by ${ENDPOINTS_VARIABLE})`;
  for (const name of Object.keys(read.overrides)) {
    if (!known.includes(name)) throw new EndpointConfigError(`${where}: "${name}" is not a provider with a subscription login (those are: ${known.join(", ")})`);
  }
  const own = read.overrides[provider] ?? {};
  const out: Record<string, string | number> = { ...defaults };
  for (const [key, value] of Object.entries(own)) {
    if (!Object.hasOwn(defaults, key)) {
      throw new EndpointConfigError(`${where}: "${provider}.${key}" is not an endpoint of ${provider} (those are: ${Object.keys(defaults).join(", ")})`);
    }
    const wanted = typeof defaults[key];
    if (typeof value !== wanted) throw new EndpointConfigError(`${where}: "${provider}.${key}" must be a ${wanted === "number" ? "number (a port)" : "string (a URL)"}`);
    if (typeof value === "string" && !/^https?:\/\//.test(value)) {
      throw new EndpointConfigError(`${where}: "${provider}.${key}" must be an http:// or https:// URL, not "${value}"`);
    }
    out[key] = value;
  }
  return out as T;
}
