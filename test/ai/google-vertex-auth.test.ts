/**
 * Vertex AI's credentials and addresses: the service account's JWT (verified with its public key),
 * the token exchange at a fake token endpoint on loopback for both kinds of credentials file, the
 * token cache, the errors for everything missing or malformed, and the URL forms.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentialsPath, readCredentials } from "../../src/ai/providers/google-credentials.ts";
import { AccessTokenCache, signServiceAccountJwt } from "../../src/ai/providers/google-token.ts";
import { isAmbientMarker, vertexKeyUrl, vertexProjectUrl, vertexTarget } from "../../src/ai/providers/google-vertex.ts";
import type { Model } from "../../src/ai/types.ts";
import { serviceAccountKeys, startFakeTokenEndpoint, verifyJwt, type FakeTokenEndpoint } from "../helpers/fake-google-token.ts";

const keys = serviceAccountKeys();
const EMAIL = "pig-test@fake-project.iam.gserviceaccount.com";
const USER = { clientId: "client-1.apps.googleusercontent.com", clientSecret: "client-secret-1", refreshToken: "1//refresh-token-1" };
let endpoint: FakeTokenEndpoint;
let dir: string;

beforeAll(() => {
  endpoint = startFakeTokenEndpoint({ serviceAccount: { email: EMAIL, publicKey: keys.publicKey }, user: USER });
  dir = mkdtempSync(join(tmpdir(), "pig-vertex-auth-"));
});
afterAll(() => endpoint.close());

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const serviceAccount = (extra: Record<string, unknown> = {}) => ({
  type: "service_account",
  project_id: "fake-project",
  private_key_id: "key-1",
  private_key: keys.privateKeyPem,
  client_email: EMAIL,
  token_uri: endpoint.url,
  ...extra,
});
const authorizedUser = (extra: Record<string, unknown> = {}) => ({
  type: "authorized_user",
  client_id: USER.clientId,
  client_secret: USER.clientSecret,
  refresh_token: USER.refreshToken,
  ...extra,
});

const MODEL: Model = {
  id: "gemini-2.5-pro",
  name: "g",
  api: "google-vertex",
  provider: "google-vertex",
  baseUrl: "https://{location}-aiplatform.googleapis.com",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

describe("service account", () => {
  test("the JWT is RS256-signed by the file's key with Pi's claims", () => {
    const now = 1_800_000_000;
    const jwt = signServiceAccountJwt(serviceAccount() as never, "https://example.test/token", now, "sa.json");
    const verified = verifyJwt(jwt, keys.publicKey);
    expect(verified?.header).toEqual({ alg: "RS256", typ: "JWT", kid: "key-1" });
    expect(verified?.claims).toEqual({ iss: EMAIL, scope: "https://www.googleapis.com/auth/cloud-platform", aud: "https://example.test/token", iat: now, exp: now + 3600 });
    expect(verifyJwt(jwt, serviceAccountKeys().publicKey)).toBeUndefined();
  });

  test("a signed assertion is traded at the file's token_uri, and the token is cached", async () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: file("sa.json", serviceAccount()), GOOGLE_CLOUD_PROJECT: "p1", GOOGLE_CLOUD_LOCATION: "europe-west4" };
    const before = endpoint.grants.length;
    const first = await vertexTarget(MODEL, { apiKey: "<authenticated>" }, new AbortController().signal, env);
    expect(first.url).toBe(
      "https://europe-west4-aiplatform.googleapis.com/v1/projects/p1/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    expect(first.headers.authorization).toMatch(/^Bearer ya29\.fake-access-token-\d+$/);
    expect(endpoint.grants[before]?.grant_type).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(endpoint.grants[before]?.claims?.iss).toBe(EMAIL);
    const second = await vertexTarget(MODEL, { apiKey: "<authenticated>" }, new AbortController().signal, env);
    expect(second.headers.authorization).toBe(first.headers.authorization);
    expect(endpoint.grants.length).toBe(before + 1);
  });

  test("a token is fetched again shortly before it expires", async () => {
    let now = 1_000_000;
    const cache = new AccessTokenCache(() => now);
    // A user login: a service account's JWT would carry the made-up clock's time.
    const credentials = await readCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file("user-clock.json", authorizedUser({ token_uri: endpoint.url })) });
    const first = await cache.get(credentials, undefined);
    now += 3599_000 - 5 * 60_000 - 1;
    expect(await cache.get(credentials, undefined)).toBe(first);
    now += 2;
    expect(await cache.get(credentials, undefined)).not.toBe(first);
  });

  test("a refusal names the endpoint, the status and the server's error_description, never a secret", async () => {
    endpoint.refuse({ status: 400, error: "invalid_grant", description: "Invalid JWT Signature." });
    try {
      const credentials = await readCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file("sa-refused.json", serviceAccount({ client_email: "other@x" })) });
      const error = await new AccessTokenCache().get(credentials, undefined).catch((e: Error) => e);
      expect(String(error)).toContain(`The Google token endpoint ${endpoint.url} (credentials ${join(dir, "sa-refused.json")}) refused: 400 invalid_grant: Invalid JWT Signature.`);
      expect(String(error)).not.toContain("PRIVATE KEY");
    } finally {
      endpoint.refuse(undefined);
    }
  });
});

describe("authorized user (gcloud's login)", () => {
  test("the refresh token is traded at PIG_GOOGLE_TOKEN_URL, the quota project sent along", async () => {
    const home = mkdtempSync(join(tmpdir(), "pig-vertex-home-"));
    const config = join(home, ".config", "gcloud");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "application_default_credentials.json"), JSON.stringify(authorizedUser({ quota_project_id: "billing-1" })));
    const env = { HOME: home, PIG_GOOGLE_TOKEN_URL: endpoint.url, GCLOUD_PROJECT: "p2", GOOGLE_CLOUD_LOCATION: "global" };
    expect(credentialsPath(env, "linux").file).toBe(join(config, "application_default_credentials.json"));
    const before = endpoint.grants.length;
    const target = await vertexTarget(MODEL, { apiKey: "<authenticated>" }, new AbortController().signal, env);
    expect(target.url).toBe("https://aiplatform.googleapis.com/v1/projects/p2/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    expect(target.headers["x-goog-user-project"]).toBe("billing-1");
    expect(endpoint.grants[before]?.form).toEqual({ grant_type: "refresh_token", client_id: USER.clientId, client_secret: USER.clientSecret, refresh_token: USER.refreshToken });
  });

  test("a revoked login reads as the endpoint's words", async () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: file("user-revoked.json", authorizedUser({ refresh_token: "1//old", token_uri: endpoint.url })) };
    const error = await new AccessTokenCache().get(await readCredentials(env), undefined).catch((e: Error) => e);
    expect(String(error)).toContain("refused: 400 invalid_grant: Token has been expired or revoked.");
    expect(String(error)).not.toContain("1//old");
    expect(String(error)).not.toContain(USER.clientSecret);
  });
});

describe("what is missing or wrong", () => {
  const target = (env: Record<string, string>): Promise<string> =>
    vertexTarget(MODEL, { apiKey: "<authenticated>" }, new AbortController().signal, env).then(
      (result) => `unexpected success: ${result.url}`,
      (error: Error) => error.message,
    );

  test("project and location", async () => {
    expect(await target({ GOOGLE_CLOUD_LOCATION: "x" })).toBe("Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT)");
    expect(await target({ GOOGLE_CLOUD_PROJECT: "p" })).toBe("Vertex AI needs a location: set GOOGLE_CLOUD_LOCATION (for example us-central1 or global)");
  });

  test("the credentials file: missing, not JSON, an unknown type, a missing field, a bad key — named, its secrets not quoted", async () => {
    const base = { GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" };
    const home = mkdtempSync(join(tmpdir(), "pig-vertex-nohome-"));
    expect(await target({ ...base, HOME: home })).toContain(`No Google Cloud credentials for Vertex AI: ${join(home, ".config", "gcloud", "application_default_credentials.json")} does not exist`);
    const missing = join(dir, "nope.json");
    expect(await target({ ...base, GOOGLE_APPLICATION_CREDENTIALS: missing })).toBe(
      `Cannot read the Google Cloud credentials file ${missing} (from GOOGLE_APPLICATION_CREDENTIALS): ENOENT`,
    );
    const broken = file("broken.json", `{"private_key": "-----BEGIN PRIVATE KEY-----\\nSECRETSTUFF`);
    const brokenMessage = await target({ ...base, GOOGLE_APPLICATION_CREDENTIALS: broken });
    expect(brokenMessage).toBe(`The Google Cloud credentials file ${broken} (from GOOGLE_APPLICATION_CREDENTIALS) is not valid JSON`);
    const external = file("external.json", { type: "external_account" });
    expect(await target({ ...base, GOOGLE_APPLICATION_CREDENTIALS: external })).toContain('has type "external_account"; pig reads "service_account" and "authorized_user" files');
    const noEmail = file("no-email.json", serviceAccount({ client_email: undefined }));
    expect(await target({ ...base, GOOGLE_APPLICATION_CREDENTIALS: noEmail })).toBe(
      `The Google Cloud credentials file ${noEmail} (from GOOGLE_APPLICATION_CREDENTIALS) lacks a valid client_email`,
    );
    const badKey = file("bad-key.json", serviceAccount({ private_key: "-----BEGIN PRIVATE KEY-----\nSECRETSTUFF\n-----END PRIVATE KEY-----\n" }));
    const badKeyMessage = await target({ ...base, GOOGLE_APPLICATION_CREDENTIALS: badKey });
    expect(badKeyMessage).toBe(`The Google Cloud credentials file ${badKey} has a private_key that is not a PEM private key`);
    expect(brokenMessage + badKeyMessage).not.toContain("SECRETSTUFF");
  });
});

describe("addresses", () => {
  test("an API key goes to the global host without a project; a real key is not the ambient marker", () => {
    expect(isAmbientMarker("<authenticated>") && isAmbientMarker("") && !isAmbientMarker("AIzaSyFake")).toBe(true);
    expect(vertexKeyUrl(MODEL)).toBe("https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
  });

  test("multi-regions, a base URL of one's own, one with {location}, one naming its version", () => {
    expect(vertexProjectUrl(MODEL, "p", "eu")).toStartWith("https://aiplatform.eu.rep.googleapis.com/v1/projects/p/locations/eu/");
    expect(vertexProjectUrl({ ...MODEL, baseUrl: "http://proxy.test/" }, "p", "l")).toBe(
      "http://proxy.test/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    expect(vertexProjectUrl({ ...MODEL, baseUrl: "http://127.0.0.1:9/{location}" }, "p", "l")).toBe(
      "http://127.0.0.1:9/l/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    expect(vertexProjectUrl({ ...MODEL, baseUrl: "http://proxy.test/v1beta1/projects/p/locations/l" }, "p", "l")).toBe(
      "http://proxy.test/v1beta1/projects/p/locations/l/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
  });
});
