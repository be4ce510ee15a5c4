/**
 * A real OAuth-protected streamable-HTTP MCP server for tests, built from the official MCP SDK:
 * its authorization server router (metadata, dynamic client registration, authorize, token with
 * PKCE checked by the SDK), its protected resource metadata, its bearer-auth middleware and an
 * `McpServer` with one tool. The in-memory provider below is the only part written here: it
 * issues short-lived tokens on demand so a test can see them renewed, and records what it was
 * asked so a test can check the requests.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express, { type Response as ExpressResponse } from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import * as z from "zod";
import { McpSessions } from "./sessions.ts";

export interface OAuthMcpServerOptions {
  /** Seconds an access token lives (`expires_in`). */
  tokenLifetimeS?: number;
  /** Scopes the MCP endpoint requires; a token without them gets 403 `insufficient_scope`. */
  requiredScopes?: string[];
  /** Scopes the protected resource metadata advertises. */
  scopesSupported?: string[];
  /** Send `iss` with the authorization response and say so in the metadata (RFC 9207). */
  issParameter?: boolean;
  /** The `iss` to send instead of the real issuer (a mix-up attack). */
  wrongIss?: string;
}

interface IssuedToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

/** What the server was asked, for the tests' checks. */
export interface ServerLog {
  registrations: OAuthClientInformationFull[];
  authorizations: AuthorizationParams[];
  codeExchanges: number;
  refreshes: number;
  toolCalls: { token: string }[];
}

class MemoryProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  readonly accessTokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, IssuedToken>();
  readonly log: ServerLog = { registrations: [], authorizations: [], codeExchanges: 0, refreshes: 0, toolCalls: [] };
  issuer = "";

  constructor(private readonly options: OAuthMcpServerOptions) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => this.clients.get(id),
      registerClient: async (client) => {
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        this.log.registrations.push(full);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ExpressResponse): Promise<void> {
    this.log.authorizations.push(params);
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    if (this.options.wrongIss) target.searchParams.set("iss", this.options.wrongIss);
    else if (this.options.issParameter) target.searchParams.set("iss", this.issuer);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new InvalidGrantError("unknown authorization code");
    return found.params.codeChallenge;
  }

  private issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const lifetime = this.options.tokenLifetimeS ?? 3600;
    const grant: IssuedToken = { clientId, scopes, expiresAt: Date.now() + lifetime * 1000, ...(resource ? { resource } : {}) };
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    this.accessTokens.set(access, grant);
    this.refreshTokens.set(refresh, grant);
    return { access_token: access, token_type: "bearer", expires_in: lifetime, refresh_token: refresh, scope: scopes.join(" ") };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, redirectUri?: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.client.client_id !== client.client_id) throw new InvalidGrantError("the code was not issued to this client");
    if (redirectUri !== found.params.redirectUri) throw new InvalidGrantError("redirect_uri differs from the authorization request's");
    this.codes.delete(code);
    this.log.codeExchanges++;
    return this.issue(client.client_id, found.params.scopes ?? [], found.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError("unknown or used refresh token");
    // Rotating: each refresh token is good once.
    this.refreshTokens.delete(refreshToken);
    this.log.refreshes++;
    return this.issue(client.client_id, grant.scopes, grant.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.accessTokens.get(token);
    if (!grant) throw new InvalidTokenError("unknown access token");
    if (grant.expiresAt <= Date.now()) throw new InvalidTokenError("the access token has expired");
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000), ...(grant.resource ? { resource: grant.resource } : {}) };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  issuer: string;
  log: ServerLog;
  /** Makes every access token issued so far expired, as time passing would. */
  expireAccessTokens(): void;
  /** Forgets every grant, as a server that revoked them. */
  revokeAll(): void;
  close(): Promise<void>;
}

function mcpServer(provider: MemoryProvider): McpServer {
  const server = new McpServer({ name: "oauth-test-server", version: "1.0.0" });
  server.registerTool(
    "whoami",
    { description: "Says which client called, with which scopes", inputSchema: { greeting: z.string().optional() } },
    async ({ greeting }, extra) => {
      const auth = extra.authInfo;
      if (auth) provider.log.toolCalls.push({ token: auth.token });
      return { content: [{ type: "text", text: `${greeting ?? "hello"} from the protected server: client ${auth?.clientId ?? "?"} with scopes [${auth?.scopes.join(" ") ?? ""}]` }] };
    },
  );
  return server;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const provider = new MemoryProvider(options);
  const app = express();
  // Routes are mounted once the port (and so the issuer URL) is known.
  let routes: express.Router | undefined;
  app.use((req, res, next) => (routes ? routes(req, res, next) : next()));
  const http: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const port = (http.address() as AddressInfo).port;
  const issuer = new URL(`http://127.0.0.1:${port}/`);
  const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  provider.issuer = issuer.href;
  const scopesSupported = options.scopesSupported ?? ["mcp:tools"];
  const router = express.Router();
  if (options.issParameter || options.wrongIss) {
    const metadata = { ...createOAuthMetadata({ provider, issuerUrl: issuer, scopesSupported }), authorization_response_iss_parameter_supported: true };
    router.get("/.well-known/oauth-authorization-server", (_req, res) => void res.json(metadata));
  }
  router.use(mcpAuthRouter({ provider, issuerUrl: issuer, resourceServerUrl: mcpUrl, scopesSupported, resourceName: "oauth-test-server" }));
  const bearer = requireBearerAuth({
    verifier: provider,
    requiredScopes: options.requiredScopes ?? [],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  const sessions = new McpSessions(() => mcpServer(provider));
  router.all("/mcp", express.json(), bearer, (req, res) => sessions.handle(req, res, req.body));
  routes = router;
  return {
    url: mcpUrl.href,
    issuer: issuer.href,
    log: provider.log,
    expireAccessTokens: () => {
      for (const grant of provider.accessTokens.values()) grant.expiresAt = 0;
    },
    revokeAll: () => {
      provider.accessTokens.clear();
      provider.refreshTokens.clear();
    },
    close: async () => {
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
