/**
 * Azure OpenAI's Responses API (`POST …/openai/v1/responses?api-version=…`): the same event
 * stream as OpenAI's Responses API (responses.ts), behind Azure's checks — the key in an
 * `api-key` header and an `api-version` query — and with Azure's error bodies,
 * `{"error": {"code", "message", "param", "type"}}` where `code` is a word or the status.
 */
import type { ScriptError } from "./script.ts";

/** The API versions this server takes: the v1 API's own, and dated ones. */
const API_VERSION = /^(v1|preview|latest|\d{4}-\d{2}-\d{2}(-preview)?)$/;

export function azureErrorBody(error: ScriptError): unknown {
  const code = error.code ?? (error.status === 429 ? "429" : error.status >= 500 ? "InternalServerError" : String(error.status));
  return { error: { code, message: error.message, param: null, type: error.type ?? null } };
}

/**
 * What Azure answers a request without a key or an API version, before any model work; undefined
 * for a request that passes.
 */
export function azureRefusal(request: Request, url: URL): Response | undefined {
  if (!request.headers.get("api-key") && !request.headers.get("authorization")) {
    const message =
      "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.";
    return Response.json({ error: { code: "401", message } }, { status: 401 });
  }
  const version = url.searchParams.get("api-version");
  if (!version) return Response.json(azureErrorBody({ status: 400, code: "BadRequest", message: "Missing required query parameter: api-version" }), { status: 400 });
  if (!API_VERSION.test(version)) {
    return Response.json(azureErrorBody({ status: 400, code: "BadRequest", message: `API version not supported: ${version}` }), { status: 400 });
  }
  return undefined;
}
