/**
 * GitHub Copilot: GitHub's device flow (github.com or a GitHub Enterprise domain) yields a GitHub
 * token, which is exchanged for a short-lived Copilot token. The GitHub token is stored as
 * `refresh` (renewing means exchanging it again), the Copilot token as `access`, the enterprise
 * domain as `enterpriseUrl` and the models the account may use as `availableModelIds`, as
 * upstream stores them. Models whose policy is still unconfigured are switched on at login.
 */
import * as v from "valibot";
import { pollDeviceCode, standardPollResult } from "../device-code.ts";
import { endpointsFor } from "../endpoints.ts";
import type { FlowContext, OAuthCredential, OAuthFlow } from "../flow.ts";
import { parseReply, request, requestJson } from "../http.ts";
import { LOGIN_PROVIDERS } from "../login-providers.ts";
import { LoginFailed } from "../types.ts";
import { COPILOT_STATIC_HEADERS, copilotBaseUrlFromToken } from "../../providers/copilot-headers.ts";

const CLIENT_ID = "Iv1.b507a08c87ecfe98";
const COPILOT_API_VERSION = "2026-06-01";
const DEFAULTS = {
  deviceCode: "https://{domain}/login/device/code",
  accessToken: "https://{domain}/login/oauth/access_token",
  copilotToken: "https://api.{domain}/copilot_internal/v2/token",
  /** Empty: the API host the Copilot token names (its `proxy-ep`). */
  copilotApi: "",
};
const EXPIRY_SKEW_MS = 5 * 60_000;

function endpoints(env: NodeJS.ProcessEnv, domain: string) {
  const urls = endpointsFor("github-copilot", DEFAULTS, env, LOGIN_PROVIDERS);
  const at = (url: string) => url.replaceAll("{domain}", encodeURIComponent(domain));
  return { deviceCode: at(urls.deviceCode), accessToken: at(urls.accessToken), copilotToken: at(urls.copilotToken), copilotApi: urls.copilotApi };
}

/** The host of a GitHub Enterprise URL or domain; undefined when it is not one. */
export function normalizeDomain(input: string): string | undefined {
  const trimmed = input.trim();
  if (!trimmed) return undefined;
  try {
    return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Where Copilot requests go: the token's `proxy-ep` (proxy.X → api.X), else the enterprise's or the individual API. */
function copilotBaseUrl(token: string, enterpriseDomain: string | undefined): string {
  return copilotBaseUrlFromToken(token) ?? (enterpriseDomain ? `https://copilot-api.${enterpriseDomain}` : "https://api.individual.githubcopilot.com");
}

const DeviceSchema = v.looseObject({
  device_code: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  verification_uri: v.pipe(v.string(), v.url(), v.regex(/^https?:/, "an http(s) URL")),
  interval: v.optional(v.number()),
  expires_in: v.number(),
});
const GitHubTokenSchema = v.looseObject({ access_token: v.pipe(v.string(), v.minLength(1)) });
const CopilotTokenSchema = v.looseObject({ token: v.pipe(v.string(), v.minLength(1)), expires_at: v.number() });
const ModelsSchema = v.looseObject({
  data: v.array(
    v.looseObject({
      id: v.string(),
      model_picker_enabled: v.optional(v.boolean()),
      policy: v.optional(v.looseObject({ state: v.optional(v.string()) })),
      capabilities: v.optional(v.looseObject({ supports: v.optional(v.looseObject({ tool_calls: v.optional(v.boolean()) })) })),
    }),
  ),
});

async function copilotToken(env: NodeJS.ProcessEnv, githubToken: string, enterpriseDomain: string | undefined, signal: AbortSignal): Promise<OAuthCredential> {
  const urls = endpoints(env, enterpriseDomain ?? "github.com");
  const reply = await requestJson(
    urls.copilotToken,
    { what: "GitHub Copilot token request", headers: { Authorization: `Bearer ${githubToken}`, ...COPILOT_STATIC_HEADERS }, signal, secrets: [githubToken] },
    CopilotTokenSchema,
  );
  return {
    type: "oauth",
    refresh: githubToken,
    access: reply.token,
    expires: reply.expires_at * 1000 - EXPIRY_SKEW_MS,
    ...(enterpriseDomain ? { enterpriseUrl: enterpriseDomain } : {}),
  };
}

/** The models the account may use, and those whose policy is still to be switched on. */
async function accountModels(env: NodeJS.ProcessEnv, credential: OAuthCredential, enterpriseDomain: string | undefined, signal: AbortSignal) {
  const base = endpoints(env, enterpriseDomain ?? "github.com").copilotApi || copilotBaseUrl(credential.access, enterpriseDomain);
  const headers = { Authorization: `Bearer ${credential.access}`, ...COPILOT_STATIC_HEADERS, "X-GitHub-Api-Version": COPILOT_API_VERSION };
  const reply = await requestJson(`${base}/models`, { what: "GitHub Copilot model list", headers, signal, secrets: [credential.access] }, ModelsSchema);
  const usable = reply.data.filter((m) => m.capabilities?.supports?.tool_calls !== false);
  const available = usable.filter((m) => m.model_picker_enabled === true && m.policy?.state !== "disabled").map((m) => m.id);
  const toEnable = usable.filter((m) => m.model_picker_enabled === true && m.policy?.state === "unconfigured").map((m) => m.id);
  const enabled: string[] = [];
  for (const id of toEnable) {
    // Best effort, as upstream: a model that cannot be switched on is simply not listed.
    const answer = await request(`${base}/models/${encodeURIComponent(id)}/policy`, {
      what: "GitHub Copilot model policy",
      headers: { ...headers, "openai-intent": "chat-policy", "x-interaction-type": "chat-policy" },
      json: { state: "enabled" },
      signal,
      secrets: [credential.access],
    }).catch(() => undefined);
    if (answer?.ok) enabled.push(id);
  }
  return [...new Set([...available, ...enabled])];
}

async function login({ io, env }: FlowContext): Promise<OAuthCredential> {
  const input = await io.ask({ kind: "text", message: "GitHub Enterprise URL or domain (blank for github.com)", placeholder: "company.ghe.com", signal: io.signal });
  const enterpriseDomain = normalizeDomain(input);
  if (input.trim() && !enterpriseDomain) throw new LoginFailed(`"${input.trim()}" is not a GitHub Enterprise URL or domain`);
  const urls = endpoints(env, enterpriseDomain ?? "github.com");
  const headers = { "User-Agent": COPILOT_STATIC_HEADERS["User-Agent"]! };
  const device = await requestJson(
    urls.deviceCode,
    { what: "GitHub device code request", headers, form: { client_id: CLIENT_ID, scope: "read:user" }, signal: io.signal },
    DeviceSchema,
  );
  io.tell({ kind: "device_code", userCode: device.user_code, verificationUri: device.verification_uri, expiresInSeconds: device.expires_in });
  const polling = { providerName: "GitHub", provider: "github-copilot", what: "GitHub device code poll", secrets: [device.device_code] };
  const githubToken = await pollDeviceCode({
    ...polling,
    intervalSeconds: device.interval,
    expiresInSeconds: device.expires_in,
    waitBeforeFirstPoll: true,
    signal: io.signal,
    poll: async () => {
      const reply = await request(urls.accessToken, {
        ...polling,
        headers,
        form: { client_id: CLIENT_ID, device_code: device.device_code, grant_type: "urn:ietf:params:oauth:grant-type:device_code" },
        signal: io.signal,
      });
      return standardPollResult(reply, polling, (ok) => parseReply(GitHubTokenSchema, ok, polling.what).access_token);
    },
  });
  io.tell({ kind: "progress", message: "Exchanging the GitHub token for a Copilot token…" });
  const credential = await copilotToken(env, githubToken, enterpriseDomain, io.signal);
  io.tell({ kind: "progress", message: "Reading the models of the account…" });
  return { ...credential, availableModelIds: await accountModels(env, credential, enterpriseDomain, io.signal) };
}

export const githubCopilotFlow: OAuthFlow = {
  login,
  // A bearer token on every API, also Anthropic Messages (whose own header would be x-api-key).
  requestAuth: (credential) => ({ apiKey: credential.access, headers: { Authorization: `Bearer ${credential.access}` } }),
  async refresh(credential, signal, env) {
    const domain = typeof credential.enterpriseUrl === "string" ? normalizeDomain(credential.enterpriseUrl) : undefined;
    const fresh = await copilotToken(env, credential.refresh, domain, signal);
    return { ...fresh, availableModelIds: await accountModels(env, fresh, domain, signal).catch(() => credential.availableModelIds ?? []) };
  },
};
