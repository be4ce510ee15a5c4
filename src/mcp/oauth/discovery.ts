/**
 * Finding where an MCP server's users sign in: the server's protected resource metadata
 * (RFC 9728), named by its `WWW-Authenticate` challenge or at the well-known paths, names the
 * authorization server, whose metadata (RFC 8414, or an OpenID configuration) must name the issuer
 * pig asked for. A configured `authServerMetadataUrl` replaces the second step. Every failure
 * names the MCP server and the URL at fault.
 */
import type * as v from "valibot";
import { parseReply, request, type Reply } from "../../ai/oauth/http.ts";
import { AuthServerMetadataSchema, ProtectedResourceMetadataSchema, type AuthServerMetadata, type Discovery, type ProtectedResourceMetadata } from "./metadata.ts";
import { isSecureOrLoopback } from "./settings.ts";

/** The MCP protocol version sent with metadata requests, as the MCP clients send it. */
const PROTOCOL_VERSION = "2025-06-18";

export class DiscoveryError extends Error {
  override name = "DiscoveryError";
}

/** What a `WWW-Authenticate: Bearer …` challenge says. */
export interface Challenge {
  resourceMetadataUrl?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

function param(header: string, name: string): string | undefined {
  const match = header.match(new RegExp(String.raw`(?:^|[,\s])${name}=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))`, "i"));
  // An empty value (`scope=""`) says nothing.
  return match?.[1]?.replace(/\\(.)/g, "$1") || match?.[2] || undefined;
}

/** The parameters of a Bearer (or DPoP) challenge; nothing for another scheme or no header. */
export function parseChallenge(header: string | null | undefined): Challenge {
  if (!header) return {};
  const scheme = header.trimStart().split(/\s+/, 1)[0]?.toLowerCase();
  if (scheme !== "bearer" && scheme !== "dpop") return {};
  const resourceMetadata = param(header, "resource_metadata");
  const scope = param(header, "scope");
  const error = param(header, "error");
  const errorDescription = param(header, "error_description");
  return {
    ...(resourceMetadata && URL.canParse(resourceMetadata) ? { resourceMetadataUrl: resourceMetadata } : {}),
    ...(scope ? { scope } : {}),
    ...(error ? { error } : {}),
    ...(errorDescription ? { errorDescription } : {}),
  };
}

/** 4xx and 502 mean "not here": the next well-known path is tried. */
function isMiss(status: number): boolean {
  return (status >= 400 && status < 500) || status === 502;
}

function trimSlash(path: string): string {
  return path.endsWith("/") ? path.slice(0, -1) : path;
}

async function getJson(url: string, what: string, signal: AbortSignal): Promise<Reply> {
  return request(url, { what, headers: { "MCP-Protocol-Version": PROTOCOL_VERSION }, signal });
}

function parsed<S extends v.GenericSchema>(schema: S, reply: Reply, what: string): v.InferOutput<S> {
  try {
    return parseReply(schema, reply, what);
  } catch (error) {
    throw new DiscoveryError((error as Error).message);
  }
}

/** The well-known URLs of `serverUrl`'s protected resource metadata: with its path, then at the root. */
export function resourceMetadataUrls(serverUrl: string): string[] {
  const server = new URL(serverUrl);
  const suffix = trimSlash(server.pathname);
  const urls = [new URL(`/.well-known/oauth-protected-resource${suffix}`, server.origin).href];
  if (suffix) urls.push(new URL("/.well-known/oauth-protected-resource", server.origin).href);
  return urls;
}

/** The protected resource metadata, or undefined when the server publishes none (upstream then asks the server's origin). */
export async function discoverResourceMetadata(server: string, serverUrl: string, challengeUrl: string | undefined, signal: AbortSignal): Promise<{ metadata: ProtectedResourceMetadata; url: string } | undefined> {
  const candidates = challengeUrl ? [challengeUrl] : resourceMetadataUrls(serverUrl);
  for (const url of candidates) {
    const what = `MCP server "${server}": protected resource metadata at ${url}`;
    const reply = await getJson(url, what, signal);
    if (reply.ok) return { metadata: parsed(ProtectedResourceMetadataSchema, reply, what), url };
    if (challengeUrl) throw new DiscoveryError(`${what}: HTTP ${reply.status} (the server's WWW-Authenticate header names this URL)`);
    if (!isMiss(reply.status)) throw new DiscoveryError(`${what}: HTTP ${reply.status}`);
  }
  return undefined;
}

/** Where an issuer's metadata may be: RFC 8414's path, then OpenID's two forms. */
export function authServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimSlash(url.pathname);
  const urls = [new URL(`/.well-known/oauth-authorization-server${path}`, url.origin).href, new URL(`/.well-known/openid-configuration${path}`, url.origin).href];
  if (path) urls.push(new URL(`${path}/.well-known/openid-configuration`, url.origin).href);
  return urls;
}

function sameIssuer(a: string, b: string): boolean {
  return trimSlash(a) === trimSlash(b);
}

/** The metadata of `issuer`, which must name `issuer` itself (RFC 8414 §3.3: a document cannot speak for another server). */
export async function discoverAuthServerMetadata(server: string, issuer: string, signal: AbortSignal): Promise<AuthServerMetadata> {
  const tried: string[] = [];
  for (const url of authServerMetadataUrls(issuer)) {
    const what = `MCP server "${server}": authorization server metadata at ${url}`;
    const reply = await getJson(url, what, signal);
    tried.push(`${url} (HTTP ${reply.status})`);
    if (!reply.ok) {
      if (isMiss(reply.status)) continue;
      throw new DiscoveryError(`${what}: HTTP ${reply.status}`);
    }
    const metadata = parsed(AuthServerMetadataSchema, reply, what);
    if (!sameIssuer(metadata.issuer, issuer)) {
      throw new DiscoveryError(`${what}: it names the issuer ${metadata.issuer}, not ${issuer}; pig does not sign in to a server whose metadata speaks for another (set oauth.authServerMetadataUrl if this server is right)`);
    }
    return checkedEndpoints(server, metadata, url);
  }
  throw new DiscoveryError(`MCP server "${server}": the authorization server ${issuer} publishes no metadata (tried ${tried.join(", ")}); set oauth.authServerMetadataUrl to its metadata document`);
}

/** Endpoints that would receive codes, secrets or tokens must be HTTPS (or on this machine). */
function checkedEndpoints(server: string, metadata: AuthServerMetadata, from: string): AuthServerMetadata {
  for (const key of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
    const value = metadata[key];
    if (value !== undefined && !isSecureOrLoopback(new URL(value))) {
      throw new DiscoveryError(`MCP server "${server}": ${from} names ${key} ${value}; pig sends credentials only over HTTPS`);
    }
  }
  return metadata;
}

async function configuredMetadata(server: string, url: string, signal: AbortSignal): Promise<AuthServerMetadata> {
  const what = `MCP server "${server}": authorization server metadata at ${url} (oauth.authServerMetadataUrl)`;
  const reply = await getJson(url, what, signal);
  if (!reply.ok) throw new DiscoveryError(`${what}: HTTP ${reply.status}`);
  return checkedEndpoints(server, parsed(AuthServerMetadataSchema, reply, what), url);
}

export interface DiscoveryRequest {
  server: string;
  serverUrl: string;
  /** From the server's 401 challenge, when it named one. */
  resourceMetadataUrl?: string | undefined;
  /** oauth.authServerMetadataUrl: used instead of discovery, trusted as configured. */
  authServerMetadataUrl?: string | undefined;
  signal: AbortSignal;
}

/** The authorization server of an MCP server and what it publishes. */
export async function discover(request: DiscoveryRequest): Promise<Discovery & { authorizationServerMetadata: AuthServerMetadata }> {
  const { server, serverUrl, signal } = request;
  const resource = await discoverResourceMetadata(server, serverUrl, request.resourceMetadataUrl, signal);
  const found = resource ? { resourceMetadata: resource.metadata, resourceMetadataUrl: resource.url } : {};
  if (request.authServerMetadataUrl) {
    const metadata = await configuredMetadata(server, request.authServerMetadataUrl, signal);
    return { authorizationServerUrl: metadata.issuer, authorizationServerMetadata: metadata, ...found };
  }
  // Without resource metadata, the MCP specification of 2025-03-26 has the server's origin be its own authorization server.
  const issuer = resource?.metadata.authorization_servers?.[0] ?? new URL("/", serverUrl).href;
  return { authorizationServerUrl: issuer, authorizationServerMetadata: await discoverAuthServerMetadata(server, issuer, signal), ...found };
}

/**
 * The `resource` to name in requests (RFC 8707): the metadata's, which must cover the MCP server's
 * URL (same origin, a path prefix), so a server cannot have pig ask for another's tokens.
 */
export function resourceFor(server: string, serverUrl: string, metadata: ProtectedResourceMetadata | undefined): string | undefined {
  if (!metadata) return undefined;
  const wanted = new URL(serverUrl);
  wanted.hash = "";
  const named = new URL(metadata.resource);
  const withSlash = (path: string) => (path.endsWith("/") ? path : `${path}/`);
  if (wanted.origin !== named.origin || !withSlash(wanted.pathname).startsWith(withSlash(named.pathname))) {
    throw new DiscoveryError(`MCP server "${server}": its protected resource metadata names the resource ${metadata.resource}, which does not cover ${wanted.href}`);
  }
  return metadata.resource;
}
