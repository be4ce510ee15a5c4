/**
 * `mcp-auth.json` in the agent directory: each MCP server's sign-in (the client pig registered,
 * the tokens, what discovery found), stored like provider logins — mode 0600 in a 0700 folder,
 * written whole through a temp file under the file's lock, and checked with a schema whenever it
 * is read. Upstream Pi's layout: keyed by the server's namespace and URL (`mcp__name|url`), so a
 * user moving between Pi and pig keeps their sign-ins; Pi's older key by URL alone is taken over.
 */
import { join } from "node:path";
import * as v from "valibot";
import { readConfigText } from "../../util/config-read.ts";
import { withFileLock, withFileLockAsync } from "../../util/file-lock.ts";
import { isPlainObject } from "../../util/plain-object.ts";
import { privateFileTarget, writePrivateJson } from "../../util/private-file.ts";
import { ClientInformationSchema, DiscoverySchema, TokensSchema } from "./metadata.ts";

export const MCP_AUTH_FILE = "mcp-auth.json";

export const ServerAuthSchema = v.looseObject({
  serverUrl: v.string(),
  clientInformation: v.optional(ClientInformationSchema),
  tokens: v.optional(TokensSchema),
  /** Milliseconds since the epoch; absent when the server named no lifetime. */
  tokensExpireAt: v.optional(v.number()),
  discovery: v.optional(DiscoverySchema),
});
export type ServerAuth = v.InferOutput<typeof ServerAuthSchema>;

export class McpAuthFileError extends Error {
  override name = "McpAuthFileError";
}

/** A refresh holds the lock while the token endpoint answers (15 s at most); older is abandoned. */
const LOCK_STALE_MS = 60_000;
const LOCK_WAIT_MS = 45_000;

/** Where one server's entry lives in the file. */
export interface ServerKey {
  name: string;
  url: string;
}

/** Upstream's key: the server's namespace (`-` as `_`) and its URL; and its older key, the URL alone. */
export function storeKeys(server: ServerKey): { key: string; legacyKey: string } {
  const legacyKey = new URL(server.url).href;
  return { key: `mcp__${server.name.replace(/-/g, "_")}|${legacyKey}`, legacyKey };
}

type Entries = Record<string, unknown>;

export class McpAuthStore {
  constructor(readonly path: string) {}

  /** The whole file, checked as an object; a missing file is empty, an unreadable or broken one an error naming it. */
  private readAll(path = this.path): Entries {
    const read = readConfigText(path);
    if (read.kind === "absent") return {};
    if (read.kind === "unreadable") throw new McpAuthFileError(`${path}: ${read.reason}`);
    let raw: unknown;
    try {
      raw = read.text.trim() ? JSON.parse(read.text) : {};
    } catch (error) {
      throw new McpAuthFileError(`${path}: not valid JSON (${(error as Error).message}); fix or remove it, then sign in again`);
    }
    if (!isPlainObject(raw)) throw new McpAuthFileError(`${path}: expected a JSON object of MCP servers' sign-ins; fix or remove it, then sign in again`);
    return raw;
  }

  /** The entry of `server` in `entries` (checked), and the key it is under; undefined when there is none for this URL. */
  private find(entries: Entries, server: ServerKey): { key: string; auth: ServerAuth } | undefined {
    const { key, legacyKey } = storeKeys(server);
    const at = Object.hasOwn(entries, key) ? key : Object.hasOwn(entries, legacyKey) ? legacyKey : undefined;
    if (at === undefined) return undefined;
    const parsed = v.safeParse(ServerAuthSchema, entries[at]);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue.path?.map((step) => String(step.key)).join(".");
      throw new McpAuthFileError(`${this.path}: the sign-in of MCP server "${server.name}" is malformed${where ? ` at "${where}"` : ""} (${issue.message}); run pig mcp logout ${server.name}, then sign in again`);
    }
    // An entry made for another URL is never sent to this one.
    if (parsed.output.serverUrl !== legacyKey) return undefined;
    return { key: at, auth: parsed.output };
  }

  load(server: ServerKey): ServerAuth | undefined {
    return this.find(this.readAll(), server)?.auth;
  }

  private write(target: string, entries: Entries, server: ServerKey, found: string | undefined, next: ServerAuth | undefined): void {
    const { key } = storeKeys(server);
    if (found !== undefined) delete entries[found];
    if (next !== undefined) entries[key] = next;
    writePrivateJson(target, entries);
  }

  /** Changes `server`'s entry under the file's lock; `change` returns the new entry, or undefined to remove it. */
  update(server: ServerKey, change: (current: ServerAuth | undefined) => ServerAuth | undefined): void {
    const target = privateFileTarget(this.path);
    withFileLock(
      target,
      () => {
        const entries = this.readAll(target);
        const found = this.find(entries, server);
        this.write(target, entries, server, found?.key, change(found?.auth));
      },
      { staleMs: LOCK_STALE_MS },
    );
  }

  /** Removes `server`'s sign-in; false when none was stored. */
  remove(server: ServerKey): boolean {
    let removed = false;
    this.update(server, (current) => {
      removed = current !== undefined;
      return undefined;
    });
    return removed;
  }

  /**
   * Runs `fn` on `server`'s entry while holding the file's lock, for work that waits on the
   * network (a refresh): another process refreshing the same tokens waits, then finds them new.
   * `fn` returns the entry to store, or undefined to leave the file as it is.
   */
  async updateAsync<T>(server: ServerKey, fn: (current: ServerAuth | undefined) => Promise<{ next?: ServerAuth; result: T }>, signal?: AbortSignal): Promise<T> {
    const target = privateFileTarget(this.path);
    return withFileLockAsync(
      target,
      async () => {
        const entries = this.readAll(target);
        const found = this.find(entries, server);
        const { next, result } = await fn(found?.auth);
        if (next !== undefined) this.write(target, entries, server, found?.key, next);
        return result;
      },
      { staleMs: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS, ...(signal ? { signal } : {}) },
    );
  }
}

/** The store in `agentDir`. */
export function mcpAuthStore(agentDir: string): McpAuthStore {
  return new McpAuthStore(join(agentDir, MCP_AUTH_FILE));
}

/** Expiry of a token answer: `expires_in` seconds from now, or none. */
export function expiryOf(expiresIn: number | undefined, now = Date.now()): number | undefined {
  return expiresIn === undefined ? undefined : now + expiresIn * 1000;
}
