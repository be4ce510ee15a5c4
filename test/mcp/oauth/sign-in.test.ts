// Signing in to a real OAuth-protected MCP server (the official SDK's authorization server,
// protected resource metadata and bearer middleware): discovery, registration, PKCE, the
// callback and the pasted URL, the iss check, storage, the transport's authorizer and renewal.
import { afterEach, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { LoginFailed } from "../../../src/ai/oauth/types.ts";
import { mcpAuthStore, oauthAuthorizer, signInToMcpServer, signOutOfMcpServer, type McpAuthStore, type McpOAuthServer } from "../../../src/mcp/oauth/index.ts";
import { browserIO } from "../../helpers/mcp/browser-io.ts";
import { startOAuthMcpServer, type OAuthMcpServer, type OAuthMcpServerOptions } from "../../helpers/mcp/oauth-mcp-server.ts";
import { tempDir } from "../../helpers/tmp.ts";

const running: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function setUp(options: OAuthMcpServerOptions = {}): Promise<{ mcp: OAuthMcpServer; server: McpOAuthServer; store: McpAuthStore; agentDir: string }> {
  const mcp = await startOAuthMcpServer(options);
  running.push(mcp);
  const agentDir = tempDir("pig-mcp-oauth-");
  return { mcp, server: { name: "docs-server", url: mcp.url }, store: mcpAuthStore(agentDir), agentDir };
}

/** An MCP request through the authorizer, sent again once when it says new credentials are ready. */
async function callMcp(url: string, authorizer: ReturnType<typeof oauthAuthorizer>): Promise<Response> {
  const send = async () =>
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(await authorizer.headers()) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } }),
    });
  const first = await send();
  if (first.status !== 401 && first.status !== 403) return first;
  return (await authorizer.unauthorized(first)) ? send() : first;
}

describe("MCP OAuth sign-in", () => {
  test("registers pig, signs in with PKCE through the loopback callback, and stores the tokens privately under Pi's key", async () => {
    const { mcp, server, store, agentDir } = await setUp();
    const io = browserIO();
    expect(await signInToMcpServer(server, { store, io, env: {} })).toBe("signed_in");

    expect(mcp.log.registrations).toHaveLength(1);
    const registration = mcp.log.registrations[0]!;
    expect(registration.client_name).toBe("pig");
    expect(registration.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(registration.token_endpoint_auth_method).toBe("none");
    const [authorization] = mcp.log.authorizations;
    expect(authorization?.resource?.href).toBe(mcp.url);
    expect(authorization?.scopes).toEqual(["mcp:tools"]);
    expect(authorization?.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = new URL(io.opened[0]!);
    expect(opened.searchParams.get("code_challenge_method")).toBe("S256");
    expect(io.landings[0]?.status).toBe(200);
    expect(mcp.log.codeExchanges).toBe(1);

    const file = join(agentDir, "mcp-auth.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await Bun.file(file).text());
    const entry = saved[`mcp__docs_server|${mcp.url}`];
    expect(entry.serverUrl).toBe(mcp.url);
    expect(entry.tokens.access_token).toMatch(/^at-/);
    expect(entry.tokens.scope).toBe("mcp:tools");
    expect(entry.clientInformation.client_id).toBe(registration.client_id);
    expect(entry.discovery.authorizationServerUrl).toBe(mcp.issuer);
    expect(typeof entry.tokensExpireAt).toBe("number");
  });

  test("the authorizer sends the token; a refused token is renewed once and the request goes again", async () => {
    const { mcp, server, store } = await setUp();
    const authorizer = oauthAuthorizer(server, { store, env: {} });
    const unsigned = await callMcp(mcp.url, authorizer);
    expect(unsigned.status).toBe(401);
    expect(authorizer.signInReason).toBe("the server requires sign-in");
    expect(authorizer.challenge?.resourceMetadataUrl).toContain("/.well-known/oauth-protected-resource/mcp");

    await signInToMcpServer(server, { store, io: browserIO(), env: {} });
    expect((await callMcp(mcp.url, authorizer)).status).toBe(200);
    const before = store.load(server)!.tokens!;

    mcp.expireAccessTokens();
    expect((await callMcp(mcp.url, authorizer)).status).toBe(200);
    expect(mcp.log.refreshes).toBe(1);
    const after = store.load(server)!.tokens!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.scope).toBe("mcp:tools");
  });

  test("a token about to expire is renewed before it is sent", async () => {
    const { mcp, server, store } = await setUp();
    await signInToMcpServer(server, { store, io: browserIO(), env: {} });
    store.update(server, (current) => ({ ...current!, tokensExpireAt: Date.now() - 1 }));
    const authorizer = oauthAuthorizer(server, { store, env: {} });
    const headers = await authorizer.headers();
    expect(mcp.log.refreshes).toBe(1);
    expect(headers.Authorization).toBe(`Bearer ${store.load(server)!.tokens!.access_token}`);
  });

  test("a revoked grant means signing in again; the next sign-in reuses the registered client", async () => {
    const { mcp, server, store } = await setUp();
    await signInToMcpServer(server, { store, io: browserIO(), env: {} });
    mcp.revokeAll();
    const authorizer = oauthAuthorizer(server, { store, env: {} });
    expect((await callMcp(mcp.url, authorizer)).status).toBe(401);
    expect(authorizer.signInReason).toContain("invalid_grant");
    expect(store.load(server)?.tokens).toBeUndefined();

    expect(await signInToMcpServer(server, { store, io: browserIO(), env: {} })).toBe("signed_in");
    expect(mcp.log.registrations).toHaveLength(1);
    expect((await callMcp(mcp.url, authorizer)).status).toBe(200);
  });

  test("signing in with a stored refresh token renews it without the browser", async () => {
    const { mcp, server, store } = await setUp();
    await signInToMcpServer(server, { store, io: browserIO(), env: {} });
    const io = browserIO();
    expect(await signInToMcpServer(server, { store, io, env: {} })).toBe("refreshed");
    expect(io.opened).toEqual([]);
    expect(mcp.log.refreshes).toBe(1);
  });

  test("a server asking for more scope gets a sign-in for the granted and the new scopes", async () => {
    const { mcp, server, store } = await setUp({ requiredScopes: ["mcp:admin"], scopesSupported: ["mcp:tools", "mcp:admin"] });
    const first = browserIO();
    await signInToMcpServer({ ...server, oauth: { scope: "mcp:tools" } }, { store, io: first, env: {} });
    const authorizer = oauthAuthorizer(server, { store, env: {} });
    const refused = await callMcp(mcp.url, authorizer);
    expect(refused.status).toBe(403);
    expect(authorizer.challenge?.error).toBe("insufficient_scope");
    expect(authorizer.signInReason).toContain("more access");

    const io = browserIO();
    expect(await signInToMcpServer(server, { store, io, env: {}, challenge: authorizer.challenge })).toBe("signed_in");
    expect(new URL(io.opened[0]!).searchParams.get("scope")).toBe("mcp:tools mcp:admin");
    expect((await callMcp(mcp.url, authorizer)).status).toBe(200);
  });

  test("the redirect URL pasted from another machine's browser completes the sign-in", async () => {
    const { mcp, server, store } = await setUp();
    expect(await signInToMcpServer(server, { store, io: browserIO("paste"), env: {} })).toBe("signed_in");
    expect(mcp.log.codeExchanges).toBe(1);
  });

  test("the iss of the answer must be the issuer's (RFC 9207)", async () => {
    const good = await setUp({ issParameter: true });
    expect(await signInToMcpServer(good.server, { store: good.store, io: browserIO(), env: {} })).toBe("signed_in");

    const mixed = await setUp({ wrongIss: "https://evil.example/" });
    const failure = signInToMcpServer(mixed.server, { store: mixed.store, io: browserIO(), env: {} });
    await expect(failure).rejects.toThrow(LoginFailed);
    await expect(failure).rejects.toThrow(`names the issuer https://evil.example/, not ${mixed.mcp.issuer}`);
    expect(mixed.mcp.log.codeExchanges).toBe(0);
  });

  test("signing out deletes the stored sign-in", async () => {
    const { server, store } = await setUp();
    await signInToMcpServer(server, { store, io: browserIO(), env: {} });
    expect(signOutOfMcpServer(store, server)).toBe(true);
    expect(store.load(server)).toBeUndefined();
    expect(signOutOfMcpServer(store, server)).toBe(false);
  });
});
