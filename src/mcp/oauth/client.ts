/**
 * How pig identifies itself to an MCP server's authorization server, and the token requests it
 * makes as that client. A client configured in mcp.json (`oauth.clientId`) is used as it is;
 * otherwise pig registers one (RFC 7591) and keeps it while its redirect URI stays the same.
 * pig has no Client ID Metadata Document to point at (upstream's lives on its own website), so
 * it never identifies with one (docs/decisions.md).
 */
import * as v from "valibot";
import { parseReply, refusal, request, type RequestSpec } from "../../ai/oauth/http.ts";
import { ClientInformationSchema, TokensSchema, type AuthServerMetadata, type ClientInformation, type Tokens } from "./metadata.ts";

/** The name pig registers under, unless `oauth.clientName` says another. */
export const CLIENT_NAME = "pig";

export interface RegistrationRequest {
  server: string;
  metadata: AuthServerMetadata;
  redirectUri: string;
  clientName: string | undefined;
  scope: string | undefined;
  signal: AbortSignal;
}

/** Registers a public client for the loopback redirect URI (a native application, RFC 8252). */
export async function registerClient(ask: RegistrationRequest): Promise<ClientInformation> {
  const endpoint = ask.metadata.registration_endpoint;
  if (!endpoint) {
    throw new Error(
      `MCP server "${ask.server}": its authorization server ${ask.metadata.issuer} offers no dynamic client registration; register a client with it and set oauth.clientId (and oauth.clientSecret, oauth.callbackPort) in mcp.json`,
    );
  }
  const what = `MCP server "${ask.server}": client registration at ${endpoint}`;
  const body = {
    client_name: ask.clientName ?? CLIENT_NAME,
    redirect_uris: [ask.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "native",
    ...(ask.scope ? { scope: ask.scope } : {}),
  };
  const reply = await request(endpoint, { what, json: body, signal: ask.signal });
  if (!reply.ok) throw refusal(reply, { what });
  const client = parseReply(ClientInformationSchema, reply, what);
  // Kept with the URI it was registered for: a sign-in on another port needs a new client.
  return { ...client, redirect_uris: client.redirect_uris ?? [ask.redirectUri] };
}

type AuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/** How the client proves itself at the token endpoint: as registered, else the best the server supports. */
export function clientAuthMethod(client: ClientInformation, supported: readonly string[]): AuthMethod {
  const hinted = client.token_endpoint_auth_method;
  if ((hinted === "client_secret_basic" || hinted === "client_secret_post" || hinted === "none") && (supported.length === 0 || supported.includes(hinted))) return hinted;
  if (!client.client_secret) return "none";
  if (supported.length === 0 || supported.includes("client_secret_basic")) return "client_secret_basic";
  return "client_secret_post";
}

export interface TokenRequest {
  server: string;
  metadata: AuthServerMetadata;
  client: ClientInformation;
  /** RFC 8707: the MCP server the tokens are for. */
  resource: string | undefined;
  signal: AbortSignal;
}

/** An authorization server's refusal of a token request, with its OAuth error code. */
export class TokenRefused extends Error {
  override name = "TokenRefused";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const ErrorBodySchema = v.looseObject({ error: v.string() });

async function tokenRequest(ask: TokenRequest, grant: Record<string, string>, what: string): Promise<Tokens> {
  const endpoint = ask.metadata.token_endpoint;
  const form: Record<string, string> = { ...grant };
  if (ask.resource) form.resource = ask.resource;
  const headers: Record<string, string> = {};
  const method = clientAuthMethod(ask.client, ask.metadata.token_endpoint_auth_methods_supported ?? []);
  if (method === "client_secret_basic") {
    const id = encodeURIComponent(ask.client.client_id);
    const secret = encodeURIComponent(ask.client.client_secret ?? "");
    headers.Authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
  } else {
    form.client_id = ask.client.client_id;
    if (method === "client_secret_post" && ask.client.client_secret) form.client_secret = ask.client.client_secret;
  }
  const spec: RequestSpec = {
    what: `MCP server "${ask.server}": ${what} at ${endpoint}`,
    headers,
    form,
    signal: ask.signal,
    secrets: [grant.code, grant.code_verifier, grant.refresh_token, ask.client.client_secret],
  };
  const reply = await request(endpoint, spec);
  // Some servers answer an OAuth error with 200: the body decides.
  if (!reply.ok || v.is(ErrorBodySchema, reply.json)) {
    const refused = refusal(reply, spec);
    throw new TokenRefused(refused.message, reply.status, refused.oauthError);
  }
  return parseReply(TokensSchema, reply, spec.what);
}

/** Exchanges the authorization code (with its PKCE verifier) for tokens. */
export function exchangeCode(ask: TokenRequest, code: { code: string; verifier: string; redirectUri: string }): Promise<Tokens> {
  return tokenRequest(ask, { grant_type: "authorization_code", code: code.code, code_verifier: code.verifier, redirect_uri: code.redirectUri }, "token exchange");
}

/** New tokens for a refresh token; an answer without a new refresh token keeps the old one (no rotation). */
export async function refreshTokens(ask: TokenRequest, refreshToken: string): Promise<Tokens> {
  const tokens = await tokenRequest(ask, { grant_type: "refresh_token", refresh_token: refreshToken }, "token refresh");
  return { refresh_token: refreshToken, ...tokens };
}
