// mcp-auth.json: Pi's keys, private and whole writes, a broken file named rather than rewritten,
// and the oauth settings' checks and loopback redirect.
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { validateServerEntry } from "../../../src/mcp/config.ts";
import { resolveClientSecret } from "../../../src/mcp/oauth/server.ts";
import { loopbackRedirect, oauthConfigProblem } from "../../../src/mcp/oauth/settings.ts";
import { McpAuthFileError, McpAuthStore, storeKeys } from "../../../src/mcp/oauth/store.ts";
import { tempDir } from "../../helpers/tmp.ts";

const server = { name: "dev-radius", url: "https://mcp.example/mcp" };
const tokens = { access_token: "at-1", token_type: "bearer", refresh_token: "rt-1" };

describe("mcp-auth.json", () => {
  test("entries are keyed by the server's namespace and URL, as Pi keys them; others' entries are kept", () => {
    const dir = tempDir();
    const path = join(dir, "agent", "mcp-auth.json");
    const store = new McpAuthStore(path);
    store.update({ name: "other", url: "https://o.example/" }, () => ({ serverUrl: "https://o.example/", tokens }));
    store.update(server, () => ({ serverUrl: server.url, tokens }));
    expect(storeKeys(server).key).toBe("mcp__dev_radius|https://mcp.example/mcp");
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toEqual(["mcp__other|https://o.example/", "mcp__dev_radius|https://mcp.example/mcp"]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "agent")).mode & 0o777).toBe(0o700);
    expect(store.load(server)?.tokens?.access_token).toBe("at-1");
    // Same URL under another name: its own sign-in.
    expect(store.load({ name: "dev-radius-2", url: server.url })).toBeUndefined();
  });

  test("Pi's older entry under the URL alone is used and moved to the new key on the next write", () => {
    const path = join(tempDir(), "mcp-auth.json");
    writeFileSync(path, JSON.stringify({ [server.url]: { serverUrl: server.url, tokens } }));
    const store = new McpAuthStore(path);
    expect(store.load(server)?.tokens?.refresh_token).toBe("rt-1");
    store.update(server, (current) => ({ ...current!, tokensExpireAt: 5 }));
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toEqual([storeKeys(server).key]);
  });

  test("an entry made for another URL is never used for this one", () => {
    const path = join(tempDir(), "mcp-auth.json");
    writeFileSync(path, JSON.stringify({ [storeKeys(server).key]: { serverUrl: "https://elsewhere.example/", tokens } }));
    expect(new McpAuthStore(path).load(server)).toBeUndefined();
  });

  test("a broken file or entry is an error naming the file and what to do; nothing is rewritten", () => {
    const path = join(tempDir(), "mcp-auth.json");
    writeFileSync(path, "{ not json");
    const store = new McpAuthStore(path);
    expect(() => store.load(server)).toThrow(McpAuthFileError);
    expect(() => store.update(server, () => undefined)).toThrow(`${path}: not valid JSON`);
    expect(readFileSync(path, "utf8")).toBe("{ not json");
    writeFileSync(path, JSON.stringify({ [storeKeys(server).key]: { serverUrl: server.url, tokens: { access_token: 7 } } }));
    expect(() => store.load(server)).toThrow(`the sign-in of MCP server "dev-radius" is malformed at "tokens.access_token"`);
  });
});

describe("oauth settings", () => {
  test("upstream's checks, and cimd refused since pig has no Client ID Metadata Document", () => {
    expect(oauthConfigProblem({ callbackUrl: "https://localhost/cb" })).toContain("oauth.callbackUrl must be an http URI");
    expect(oauthConfigProblem({ callbackUrl: "http://localhost:9000/cb", callbackPort: 9001 })).toBe("oauth.callbackUrl and oauth.callbackPort name different ports");
    expect(oauthConfigProblem({ clientRegistration: "cimd" })).toContain("pig has no Client ID Metadata Document");
    expect(oauthConfigProblem({ authServerMetadataUrl: "http://idp.example/x" })).toContain("must be an https URL");
    expect(oauthConfigProblem({ clientId: "c", callbackPort: 8765, authServerMetadataUrl: "http://127.0.0.1:9/x" })).toBeUndefined();
  });

  test("the redirect URI: a configured one as written, a port added, or any free port", () => {
    expect(loopbackRedirect({})).toEqual({ host: "127.0.0.1", port: 0, path: "/callback", fixedUri: undefined });
    expect(loopbackRedirect({ callbackPort: 8765 })).toEqual({ host: "127.0.0.1", port: 8765, path: "/callback", fixedUri: "http://127.0.0.1:8765/callback" });
    expect(loopbackRedirect({ callbackUrl: "http://localhost:9000/oauth/cb" })).toEqual({ host: "localhost", port: 9000, path: "/oauth/cb", fixedUri: "http://localhost:9000/oauth/cb" });
  });

  test("a client secret from the environment or a command", () => {
    expect(resolveClientSecret("${SECRET}", { SECRET: "s3" }, "x")).toBe("s3");
    expect(resolveClientSecret("!echo from-command", {}, "x")).toBe("from-command");
    expect(resolveClientSecret("${MISSING}", {}, "x")).toBeUndefined();
    expect(() => resolveClientSecret("!exit 3", {}, "x")).toThrow('server "x": oauth.clientSecret: the command "exit 3" failed');
  });

  test("mcp.json reports a server's oauth mistake with the field, and keeps a good one", () => {
    expect(validateServerEntry("docs", { url: "https://x.example/mcp", oauth: { callbackPort: "8765" } })).toBe('server "docs": oauth.callbackPort: Invalid type: Expected number but received "8765"');
    expect(validateServerEntry("docs", { url: "https://x.example/mcp", oauth: { clientRegistration: "cimd" } })).toContain("pig has no Client ID Metadata Document");
    expect(validateServerEntry("docs", { url: "https://x.example/mcp", oauth: { clientId: "c", scope: "read" } })).toMatchObject({ transport: "http", oauth: { clientId: "c" } });
  });
});
