// Discovery of an MCP server's authorization server, against the official SDK's server and small
// servers that publish wrong documents; the challenge, the well-known paths and the resource check.
import { afterEach, describe, expect, test } from "bun:test";
import { authServerMetadataUrls, discover, parseChallenge, resourceFor, resourceMetadataUrls } from "../../../src/mcp/oauth/discovery.ts";
import { startOAuthMcpServer, type OAuthMcpServer } from "../../helpers/mcp/oauth-mcp-server.ts";

const stops: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function sdkServer(): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer();
  stops.push(() => server.close());
  return server;
}

/** A server answering each path with the JSON `routes` give it, 404 otherwise. */
function documents(routes: (origin: string) => Record<string, unknown>): string {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const body = routes(url.origin)[url.pathname];
      return body === undefined ? new Response("not here", { status: 404 }) : Response.json(body);
    },
  });
  stops.push(() => server.stop(true));
  return `http://127.0.0.1:${server.port}`;
}

const signal = new AbortController().signal;

describe("the challenge of a 401", () => {
  test("Bearer parameters are read, quoted or not; another scheme says nothing", () => {
    expect(parseChallenge('Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp"')).toEqual({
      error: "insufficient_scope",
      scope: "a b",
      resourceMetadataUrl: "https://x.example/.well-known/oauth-protected-resource/mcp",
    });
    expect(parseChallenge("Bearer error=invalid_token, scope=\"\"")).toEqual({ error: "invalid_token" });
    expect(parseChallenge('Basic realm="x"')).toEqual({});
    expect(parseChallenge(null)).toEqual({});
  });
});

describe("well-known paths", () => {
  test("protected resource metadata: with the server's path, then at the root", () => {
    expect(resourceMetadataUrls("https://a.example/v1/mcp")).toEqual(["https://a.example/.well-known/oauth-protected-resource/v1/mcp", "https://a.example/.well-known/oauth-protected-resource"]);
    expect(resourceMetadataUrls("https://a.example/")).toEqual(["https://a.example/.well-known/oauth-protected-resource"]);
  });

  test("authorization server metadata: RFC 8414, then both OpenID forms", () => {
    expect(authServerMetadataUrls("https://id.example/tenant")).toEqual([
      "https://id.example/.well-known/oauth-authorization-server/tenant",
      "https://id.example/.well-known/openid-configuration/tenant",
      "https://id.example/tenant/.well-known/openid-configuration",
    ]);
  });
});

describe("discovery", () => {
  test("finds the SDK server's authorization server through its resource metadata", async () => {
    const mcp = await sdkServer();
    const found = await discover({ server: "docs", serverUrl: mcp.url, signal });
    expect(found.authorizationServerUrl).toBe(mcp.issuer);
    expect(found.authorizationServerMetadata.registration_endpoint).toBe(`${mcp.issuer}register`);
    expect(found.resourceMetadata?.resource).toBe(mcp.url);
    expect(resourceFor("docs", mcp.url, found.resourceMetadata)).toBe(mcp.url);
  });

  test("an OpenID configuration is used when RFC 8414's document is missing", async () => {
    const base = documents((origin) => ({
      "/.well-known/oauth-protected-resource/mcp": { resource: `${origin}/mcp`, authorization_servers: [`${origin}/idp`] },
      "/idp/.well-known/openid-configuration": { issuer: `${origin}/idp`, authorization_endpoint: `${origin}/idp/auth`, token_endpoint: `${origin}/idp/token` },
    }));
    const found = await discover({ server: "docs", serverUrl: `${base}/mcp`, signal });
    expect(found.authorizationServerMetadata.token_endpoint).toBe(`${base}/idp/token`);
  });

  test("metadata naming another issuer is refused, naming the server and the document", async () => {
    const base = documents((origin) => ({
      "/.well-known/oauth-protected-resource/mcp": { resource: `${origin}/mcp`, authorization_servers: [origin] },
      "/.well-known/oauth-authorization-server": { issuer: "https://other.example", authorization_endpoint: `${origin}/a`, token_endpoint: `${origin}/t` },
    }));
    await expect(discover({ server: "docs", serverUrl: `${base}/mcp`, signal })).rejects.toThrow(
      `MCP server "docs": authorization server metadata at ${base}/.well-known/oauth-authorization-server: it names the issuer https://other.example, not ${base}`,
    );
  });

  test("oauth.authServerMetadataUrl replaces discovery and is trusted as configured", async () => {
    const base = documents((origin) => ({
      "/okta/.well-known/openid-configuration": { issuer: "https://login.example/okta", authorization_endpoint: `${origin}/a`, token_endpoint: `${origin}/t` },
    }));
    const found = await discover({ server: "docs", serverUrl: `${base}/mcp`, authServerMetadataUrl: `${base}/okta/.well-known/openid-configuration`, signal });
    expect(found.authorizationServerUrl).toBe("https://login.example/okta");
  });

  test("no metadata anywhere is an error listing what was tried", async () => {
    const base = documents(() => ({}));
    await expect(discover({ server: "docs", serverUrl: `${base}/mcp`, signal })).rejects.toThrow(`MCP server "docs": the authorization server ${base}/ publishes no metadata (tried ${base}/.well-known/oauth-authorization-server (HTTP 404)`);
  });

  test("a token endpoint over plain HTTP elsewhere than this machine is refused", async () => {
    const base = documents((origin) => ({
      "/.well-known/oauth-authorization-server": { issuer: `${origin}/`, authorization_endpoint: `${origin}/a`, token_endpoint: "http://tokens.example/t" },
    }));
    await expect(discover({ server: "docs", serverUrl: `${base}/mcp`, signal })).rejects.toThrow("names token_endpoint http://tokens.example/t; pig sends credentials only over HTTPS");
  });

  test("a resource that does not cover the server's URL is refused", () => {
    expect(() => resourceFor("docs", "https://a.example/mcp", { resource: "https://b.example/mcp" })).toThrow('MCP server "docs": its protected resource metadata names the resource https://b.example/mcp, which does not cover https://a.example/mcp');
    expect(resourceFor("docs", "https://a.example/v1/mcp", { resource: "https://a.example/v1" })).toBe("https://a.example/v1");
  });
});
