/**
 * `/mcp login <server>` and `/mcp logout <server>`, and "Sign in"/"Sign out" in `/mcp`'s menu:
 * the sign-in runs through the command's UI (every mode), follows the server's last challenge
 * (the scope it asked for), and reconnects the server once new credentials are stored, so a
 * running session uses them from its next turn.
 */
import { LoginCancelled } from "../ai/oauth/types.ts";
import type { CommandContext } from "../extensions/commands.ts";
import { oauthServer, usesOAuth } from "../mcp/oauth/configured.ts";
import { signInToMcpServer, signOutOfMcpServer, type McpAuthorizers } from "../mcp/oauth/index.ts";
import type { McpServers, ServerEntry } from "../mcp/servers.ts";
import { commandLoginIO } from "./mcp-login-io.ts";

export interface McpSignIns {
  servers: McpServers;
  authorizers: McpAuthorizers;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether pig may open a browser on this machine. */
  interactive: boolean;
}

/** Whether `entry` signs in with OAuth (an HTTP server without its own Authorization header). */
export function signsIn(entry: ServerEntry | undefined): entry is ServerEntry {
  return entry !== undefined && usesOAuth(entry.config);
}

/** Whether a sign-in of `entry` is stored. */
export function signedIn(deps: McpSignIns, entry: ServerEntry): boolean {
  if (entry.config.transport !== "http") return false;
  try {
    return deps.authorizers.store.load({ name: entry.name, url: entry.config.url }) !== undefined;
  } catch {
    return false;
  }
}

export async function mcpLogin(deps: McpSignIns, name: string, ctx: CommandContext): Promise<void> {
  const entry = deps.servers.find(name);
  if (!entry) {
    ctx.ui.notify(`No MCP server named "${name}".`, "error");
    return;
  }
  const server = oauthServer(name, entry.config);
  if (typeof server === "string") {
    ctx.ui.notify(server, "error");
    return;
  }
  const cancel = new AbortController();
  const io = commandLoginIO(ctx.ui, { cancel, openPages: deps.interactive, env: deps.env });
  try {
    const result = await signInToMcpServer(server, { store: deps.authorizers.store, io, env: deps.env as NodeJS.ProcessEnv, challenge: deps.authorizers.challengeOf(name) });
    const how = result === "refreshed" ? " with the stored refresh token" : "";
    ctx.ui.notify(`Signed in to MCP server "${name}"${how}; saved in ${deps.authorizers.store.path}.`, "info");
  } catch (error) {
    if (error instanceof LoginCancelled || cancel.signal.aborted) ctx.ui.notify(`Sign-in to MCP server "${name}" cancelled; nothing was stored.`, "info");
    else ctx.ui.notify(`Could not sign in to MCP server "${name}": ${(error as Error).message}`, "error");
    return;
  }
  if (entry.enabled) ctx.ui.notify(await deps.servers.reconnect(name), "info");
}

export async function mcpLogout(deps: McpSignIns, name: string, ctx: CommandContext): Promise<void> {
  const entry = deps.servers.find(name);
  if (!entry || entry.config.transport !== "http") {
    ctx.ui.notify(entry ? `MCP server "${name}" runs a command (stdio); it has no sign-in.` : `No MCP server named "${name}".`, "error");
    return;
  }
  let removed: boolean;
  try {
    removed = signOutOfMcpServer(deps.authorizers.store, { name, url: entry.config.url });
  } catch (error) {
    ctx.ui.notify(`Could not sign out of MCP server "${name}": ${(error as Error).message}`, "error");
    return;
  }
  if (!removed) {
    ctx.ui.notify(`No sign-in of MCP server "${name}" is stored in ${deps.authorizers.store.path}.`, "info");
    return;
  }
  ctx.ui.notify(`Signed out of MCP server "${name}": its tokens and registered client are deleted from ${deps.authorizers.store.path}.`, "info");
  // The open connection still holds the old token: connect again without it.
  if (entry.enabled) ctx.ui.notify(await deps.servers.reconnect(name), "info");
}
