/**
 * Vertex AI (`google-vertex`): the Gemini body of google-request.ts sent to
 * `…/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent?alt=sse`.
 *
 * Credentials (`options.apiKey`): a Google Cloud API key (`GOOGLE_CLOUD_API_KEY`), sent as
 * `x-goog-api-key` to the global endpoint without a project; or a placeholder in angle brackets
 * (`<authenticated>`), which means Application Default Credentials from the environment, read
 * at request time: a bearer token from google-credentials.ts / google-token.ts, the project from
 * `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`) and the location from `GOOGLE_CLOUD_LOCATION`.
 *
 * Where the request goes, as upstream Pi 0.87.1 sends it:
 * - a base URL with `{location}` in it (the catalogue's `https://{location}-aiplatform.googleapis.com`)
 *   is Google's regional host: `global` uses `aiplatform.googleapis.com`, the multi-regions `us`
 *   and `eu` `aiplatform.{location}.rep.googleapis.com`; the path names project and location.
 *   Another host with `{location}` in it gets the location filled in and the same path;
 * - any other base URL (a proxy, a private endpoint) is the collection itself: the path starts at
 *   `publishers/…`, after `/v1` unless the URL already names a version.
 */
import type { Model, StreamFunction, StreamOptions } from "../types.ts";
import { readCredentials, type Env } from "./google-credentials.ts";
import { streamGoogle, type GoogleApi, type GoogleTarget } from "./google-send.ts";
import { AccessTokenCache } from "./google-token.ts";

export const DEFAULT_VERTEX_BASE_URL = "https://{location}-aiplatform.googleapis.com";
const GLOBAL_HOST = "https://aiplatform.googleapis.com";
const MULTI_REGIONS = new Set(["us", "eu"]);
const API_VERSION = "v1";

/** True for a key that stands for "use the environment's credentials" rather than being one. */
export function isAmbientMarker(apiKey: string | undefined): boolean {
  const key = apiKey?.trim() ?? "";
  return key === "" || key === "gcp-vertex-credentials" || /^<[^>]+>$/.test(key);
}

function modelPath(id: string): string {
  if (id.startsWith("publishers/") || id.startsWith("projects/") || id.startsWith("models/")) return id;
  const slash = id.indexOf("/");
  return slash >= 0 ? `publishers/${id.slice(0, slash)}/models/${id.slice(slash + 1).split("/")[0]}` : `publishers/google/models/${id}`;
}

function namesVersion(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).pathname.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part));
  } catch {
    return /(?:^|\/)v\d+(?:beta\d*)?(?:\/|$)/.test(baseUrl);
  }
}

/** A custom base URL (no `{location}` in it) addresses the collection, as upstream's client does. */
function collectionUrl(baseUrl: string, modelId: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  const version = namesVersion(base) ? "" : `/${API_VERSION}`;
  return `${base}${version}/${modelPath(modelId)}:streamGenerateContent?alt=sse`;
}

function regionalHost(baseUrl: string, location: string): string {
  if (baseUrl === DEFAULT_VERTEX_BASE_URL) {
    if (location === "global") return GLOBAL_HOST;
    if (MULTI_REGIONS.has(location)) return `https://aiplatform.${location}.rep.googleapis.com`;
  }
  return baseUrl.replaceAll("{location}", location).replace(/\/+$/, "");
}

/** The request URL for an API key (no project: Vertex's express mode). */
export function vertexKeyUrl(model: Pick<Model, "baseUrl" | "id">): string {
  const base = model.baseUrl.trim();
  if (base && !base.includes("{location}")) return collectionUrl(base, model.id);
  return `${GLOBAL_HOST}/${API_VERSION}/${modelPath(model.id)}:streamGenerateContent?alt=sse`;
}

/** The request URL for a project and location. */
export function vertexProjectUrl(model: Pick<Model, "baseUrl" | "id">, project: string, location: string): string {
  const base = model.baseUrl.trim() || DEFAULT_VERTEX_BASE_URL;
  if (!base.includes("{location}")) return collectionUrl(base, model.id);
  const path = `projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/${modelPath(model.id)}`;
  return `${regionalHost(base, location)}/${API_VERSION}/${path}:streamGenerateContent?alt=sse`;
}

/** Project and location from the environment; a missing one is named with the variables that set it. */
export function vertexProjectAndLocation(env: Env): { project: string; location: string } {
  const project = env.GOOGLE_CLOUD_PROJECT?.trim() || env.GCLOUD_PROJECT?.trim();
  if (!project) throw new Error("Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT)");
  const location = env.GOOGLE_CLOUD_LOCATION?.trim();
  if (!location) throw new Error("Vertex AI needs a location: set GOOGLE_CLOUD_LOCATION (for example us-central1 or global)");
  return { project, location };
}

const tokens = new AccessTokenCache();

/** URL and credentials for one request; `env` is read now, so a changed environment counts. */
export async function vertexTarget(model: Model, options: StreamOptions, signal: AbortSignal, env: Env = process.env): Promise<GoogleTarget> {
  if (!isAmbientMarker(options.apiKey)) {
    return { url: vertexKeyUrl(model), headers: { "x-goog-api-key": options.apiKey.trim() } };
  }
  const { project, location } = vertexProjectAndLocation(env);
  const credentials = await readCredentials(env);
  const token = await tokens.get(credentials, signal);
  const quotaProject = credentials.account.quota_project_id;
  return {
    url: vertexProjectUrl(model, project, location),
    headers: { authorization: `Bearer ${token}`, ...(quotaProject ? { "x-goog-user-project": quotaProject } : {}) },
    secrets: [token],
  };
}

const VERTEX: GoogleApi = {
  dialect: "vertex",
  label: "Google Vertex",
  target: (model, options, signal) => vertexTarget(model, options, signal),
};

export const streamGoogleVertex: StreamFunction = (model, context, options) => streamGoogle(VERTEX, model, context, options);
