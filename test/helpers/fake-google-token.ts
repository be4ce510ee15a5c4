/**
 * A fake Google OAuth token endpoint on loopback (`POST /token`), for Vertex AI's Application
 * Default Credentials: it verifies a service account's JWT assertion with the account's public
 * key (RS256, `iss`, `aud` = its own URL, the cloud-platform scope, an hour's validity) and a user
 * login's refresh-token grant, and answers as Google does — a token, or `{error, error_description}`.
 */
import { createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";

export interface TokenGrant {
  grant_type: string;
  /** Decoded JWT claims of an assertion that verified. */
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  form: Record<string, string>;
}

export interface FakeTokenEndpoint {
  /** `http://127.0.0.1:PORT/token` */
  url: string;
  grants: TokenGrant[];
  /** Answer every grant with this refusal from now on (undefined: accept again). */
  refuse(refusal: { status: number; error: string; description: string } | undefined): void;
  close(): Promise<void>;
}

export interface ServiceAccountKeys {
  privateKeyPem: string;
  publicKey: KeyObject;
}

export function serviceAccountKeys(): ServiceAccountKeys {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey };
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** The assertion's header and claims when its RS256 signature verifies with `publicKey`, else undefined. */
export function verifyJwt(jwt: string, publicKey: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const [header, claims, signature] = jwt.split(".");
  if (!header || !claims || !signature) return undefined;
  const ok = createVerify("RSA-SHA256").update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, "base64url"));
  return ok ? { header: decodePart(header), claims: decodePart(claims) } : undefined;
}

export interface TokenEndpointOptions {
  /** The service account allowed to sign in, by email and public key. */
  serviceAccount?: { email: string; publicKey: KeyObject };
  /** The user login allowed to refresh. */
  user?: { clientId: string; clientSecret: string; refreshToken: string };
  accessToken?: string;
  expiresIn?: number;
}

export function startFakeTokenEndpoint(options: TokenEndpointOptions): FakeTokenEndpoint {
  const grants: TokenGrant[] = [];
  let refusal: { status: number; error: string; description: string } | undefined;
  let issued = 0;
  const deny = (status: number, error: string, description: string) => Response.json({ error, error_description: description }, { status });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method !== "POST" || url.pathname !== "/token") return new Response("not found", { status: 404 });
      if (!request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) return deny(400, "invalid_request", "form body expected");
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      const grant: TokenGrant = { grant_type: form.grant_type ?? "", form };
      grants.push(grant);
      if (refusal) return deny(refusal.status, refusal.error, refusal.description);
      if (form.grant_type === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        const account = options.serviceAccount;
        const verified = account && form.assertion ? verifyJwt(form.assertion, account.publicKey) : undefined;
        if (!verified) return deny(400, "invalid_grant", "Invalid JWT Signature.");
        Object.assign(grant, verified);
        const { claims } = verified;
        const now = Date.now() / 1000;
        const valid =
          claims.iss === account!.email &&
          claims.aud === `http://127.0.0.1:${server.port}/token` &&
          claims.scope === "https://www.googleapis.com/auth/cloud-platform" &&
          typeof claims.iat === "number" &&
          typeof claims.exp === "number" &&
          claims.exp - claims.iat === 3600 &&
          Math.abs(claims.iat - now) < 300;
        if (!valid) return deny(400, "invalid_grant", "Invalid JWT: claims do not match.");
      } else if (form.grant_type === "refresh_token") {
        const user = options.user;
        if (!user || form.client_id !== user.clientId || form.client_secret !== user.clientSecret) return deny(401, "invalid_client", "The OAuth client was not found.");
        if (form.refresh_token !== user.refreshToken) return deny(400, "invalid_grant", "Token has been expired or revoked.");
      } else {
        return deny(400, "unsupported_grant_type", `Invalid grant_type: ${form.grant_type}`);
      }
      issued += 1;
      return Response.json({ access_token: `${options.accessToken ?? "ya29.fake-access-token"}-${issued}`, expires_in: options.expiresIn ?? 3599, token_type: "Bearer" });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/token`,
    grants,
    refuse(next) {
      refusal = next;
    },
    close: () => server.stop(true),
  };
}
