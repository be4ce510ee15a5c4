/**
 * Where an Azure OpenAI request goes, read from the environment at request time as upstream Pi
 * reads it: the endpoint (`AZURE_OPENAI_BASE_URL`, else `https://<AZURE_OPENAI_RESOURCE_NAME>.openai.azure.com/openai/v1`,
 * else the model's `baseUrl`), the `api-version` query (`AZURE_OPENAI_API_VERSION`, default
 * `v1`) and the deployment a model id is sent as (`AZURE_OPENAI_DEPLOYMENT_NAME_MAP`,
 * `model=deployment,…`). Pure: the caller passes the environment.
 */

import type { EnvLookup } from "./provider-env.ts";

export const AZURE_BASE_URL_VAR = "AZURE_OPENAI_BASE_URL";
export const AZURE_RESOURCE_VAR = "AZURE_OPENAI_RESOURCE_NAME";
export const AZURE_API_VERSION_VAR = "AZURE_OPENAI_API_VERSION";
export const AZURE_DEPLOYMENTS_VAR = "AZURE_OPENAI_DEPLOYMENT_NAME_MAP";
export const DEFAULT_AZURE_API_VERSION = "v1";

export interface AzureEndpoint {
  /** The base the SDK appends `/responses` to, e.g. `https://res.openai.azure.com/openai/v1`. */
  baseUrl: string;
  apiVersion: string;
}

const AZURE_HOST_SUFFIXES = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"];
/** Paths users copy from Azure's portal that mean the v1 API root. */
const V1_ROOT_ALIASES = new Set(["", "/", "/openai", "/openai/v1/responses"]);

/**
 * An Azure host given without the v1 path (or with `/responses` on it) gets `/openai/v1`, as
 * upstream does, so `…/openai.azure.com` and `…/openai/v1` both work. Other hosts (a proxy,
 * a test server) are taken as they are.
 */
export function normalizeAzureBaseUrl(baseUrl: string, source: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`Azure OpenAI: ${source} is not a URL: "${baseUrl}" (expected e.g. https://<resource>.openai.azure.com/openai/v1)`);
  }
  const azureHost = AZURE_HOST_SUFFIXES.some((suffix) => url.hostname.endsWith(suffix));
  if (azureHost && V1_ROOT_ALIASES.has(url.pathname.replace(/\/+$/, ""))) {
    url.pathname = "/openai/v1";
    url.search = "";
  }
  return url.toString().replace(/\/+$/, "");
}

export function resolveAzureEndpoint(model: { id: string; provider: string; baseUrl: string }, env: EnvLookup): AzureEndpoint {
  const apiVersion = env(AZURE_API_VERSION_VAR) || DEFAULT_AZURE_API_VERSION;
  const fromEnv = env(AZURE_BASE_URL_VAR)?.trim();
  if (fromEnv) return { baseUrl: normalizeAzureBaseUrl(fromEnv, AZURE_BASE_URL_VAR), apiVersion };
  const resource = env(AZURE_RESOURCE_VAR)?.trim();
  if (resource) {
    if (!/^[A-Za-z0-9-]+$/.test(resource)) {
      throw new Error(`Azure OpenAI: ${AZURE_RESOURCE_VAR} must be a resource name (letters, digits, dashes), not "${resource}"`);
    }
    return { baseUrl: `https://${resource}.openai.azure.com/openai/v1`, apiVersion };
  }
  if (model.baseUrl.trim()) return { baseUrl: normalizeAzureBaseUrl(model.baseUrl, `the "baseUrl" of model "${model.id}"`), apiVersion };
  throw new Error(
    `Azure OpenAI: no endpoint for model "${model.id}" (provider ${model.provider}). Set ${AZURE_BASE_URL_VAR} ` +
      `(https://<resource>.openai.azure.com/openai/v1) or ${AZURE_RESOURCE_VAR}, or give the model a "baseUrl" in models.json`,
  );
}

/** `gpt-4.1=prod-gpt41, o4-mini=team-o4` → a map; entries without both sides are skipped, as upstream does. */
export function parseDeploymentMap(value: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of (value ?? "").split(",")) {
    const at = entry.indexOf("=");
    if (at < 0) continue;
    const modelId = entry.slice(0, at).trim();
    const deployment = entry.slice(at + 1).trim();
    if (modelId && deployment) map.set(modelId, deployment);
  }
  return map;
}

/** The deployment `modelId` is sent as: the map's entry, else the model id itself. */
export function deploymentName(modelId: string, env: EnvLookup): string {
  return parseDeploymentMap(env(AZURE_DEPLOYMENTS_VAR)).get(modelId) ?? modelId;
}
