/**
 * `/mcp`, registered as upstream registers its built-in MCP extension's command, so it is the
 * same in every mode and listed by RPC `get_commands`. In the interactive mode it opens a list
 * of the servers (state, tool count) and what can be done to the one picked; elsewhere it prints
 * the servers' state. `/mcp reconnect|enable|disable <server>` acts directly in every mode, and
 * `/mcp login|logout <server>` signs in to (or out of) an OAuth-protected HTTP server.
 */
import type { CommandDefinition, CommandContext, ArgumentCompletion } from "../extensions/commands.ts";
import type { McpServers, ServerRow } from "../mcp/servers.ts";
import { ACTIONS, actionCompletions, MCP_DESCRIPTION, type Action } from "./mcp-lazy-command.ts";
import { mcpLogin, mcpLogout, signedIn, signsIn, type McpSignIns } from "./mcp-sign-in.ts";

export const MCP_USAGE = "Usage: /mcp, /mcp reconnect [server], /mcp enable <server>, /mcp disable <server>, /mcp login <server>, /mcp logout <server>";

/** Runs `action` on server `name`; the sign-in actions tell their outcome themselves. */
async function run(signIns: McpSignIns, action: Action, name: string, ctx: CommandContext): Promise<void> {
  const { servers } = signIns;
  if (action === "login") return mcpLogin(signIns, name, ctx);
  if (action === "logout") return mcpLogout(signIns, name, ctx);
  const message = action === "reconnect" ? await servers.reconnect(name) : await servers.setEnabled(name, action === "enable");
  const failed = servers.find(name)?.connection?.state === "failed" || message.startsWith("No MCP server");
  ctx.ui.notify(message, failed ? "error" : "info");
}

/**
 * The servers an action applies to: reconnect the enabled ones, enable the disabled, disable the
 * enabled, sign in to those that sign in with OAuth, sign out of those with a stored sign-in.
 */
function eligible(signIns: McpSignIns, row: ServerRow, action: Action): boolean {
  const entry = signIns.servers.find(row.name);
  if (action === "login") return signsIn(entry);
  if (action === "logout") return entry !== undefined && signedIn(signIns, entry);
  return action === "enable" ? !row.enabled : row.enabled;
}

/** "Sign in" for a server that signs in with OAuth (first when it needs it), "Sign out" when a sign-in is stored. */
function signInChoices(signIns: McpSignIns, row: ServerRow): string[] {
  const entry = signIns.servers.find(row.name);
  if (!signsIn(entry)) return [];
  return [...(entry.connection?.state === "needs-sign-in" || !signedIn(signIns, entry) ? ["Sign in"] : []), ...(signedIn(signIns, entry) ? ["Sign out"] : [])];
}

const MENU_ACTIONS: Readonly<Record<string, Action>> = { Reconnect: "reconnect", Disable: "disable", Enable: "enable", "Sign in": "login", "Sign out": "logout" };

function rowLabel(row: ServerRow): string {
  return `${row.name} — ${row.state}`;
}

function details(row: ServerRow): string {
  const lines = [`${row.name}: ${row.state}`, `  defined in ${row.source} (${row.scope})`];
  if (row.error && !row.state.includes(row.error)) lines.push(`  error: ${row.error}`);
  if (row.stderr) lines.push(`  stderr: ${row.stderr.split("\n").join("\n          ")}`);
  if (row.toolNames.length > 0) lines.push(`  tools: ${row.toolNames.join(", ")}`);
  return lines.join("\n");
}

/** The interactive list: pick a server, then what to do with it. */
async function manage(signIns: McpSignIns, ctx: CommandContext): Promise<void> {
  const { servers } = signIns;
  const rows = servers.rows();
  if (rows.length === 0) {
    ctx.ui.notify(servers.statusText(), "info");
    return;
  }
  const picked = await ctx.ui.select("MCP servers", rows.map(rowLabel));
  const row = rows.find((r) => rowLabel(r) === picked);
  if (!row) return;
  const signIn = signInChoices(signIns, row);
  const needsSignIn = signIn[0] === "Sign in" && servers.find(row.name)?.connection?.state === "needs-sign-in";
  const own = row.enabled ? ["Reconnect", "Disable"] : ["Enable"];
  const choices = [...(needsSignIn ? [...signIn, ...own] : [...own, ...signIn]), "Details"];
  const action = await ctx.ui.select(`${row.name}: ${row.state}`, choices);
  if (action === undefined) return;
  if (action === "Details") {
    ctx.ui.notify(details(row), "info");
    return;
  }
  const chosen = MENU_ACTIONS[action];
  if (chosen) await run(signIns, chosen, row.name, ctx);
}

/** The actions whose names start with `typed`, each completing to the name and a space. */
export function mcpCommand(servers: McpServers, interactive: boolean, signIns: McpSignIns): CommandDefinition {
  return {
    name: "mcp",
    description: MCP_DESCRIPTION,
    getArgumentCompletions(prefix: string): ArgumentCompletion[] | null {
      const [action, server, ...rest] = prefix.trimStart().split(/\s+/);
      if (rest.length > 0) return null;
      if (server === undefined) return actionCompletions(action ?? "");
      if (!(ACTIONS as readonly string[]).includes(action!)) return null;
      const items = servers
        .rows()
        .filter((row) => eligible(signIns, row, action as Action) && row.name.startsWith(server))
        .map((row) => ({ value: `${action} ${row.name}`, label: row.name, description: row.state }));
      return items.length > 0 ? items : null;
    },
    async handler(args, ctx) {
      const [action, name, ...extra] = args.trim().split(/\s+/).filter(Boolean);
      if (action === undefined) {
        await servers.settled();
        if (interactive) await manage(signIns, ctx);
        else ctx.ui.notify(servers.statusText(), "info");
        return;
      }
      if (extra.length > 0 || !(ACTIONS as readonly string[]).includes(action)) {
        ctx.ui.notify(MCP_USAGE, "warning");
        return;
      }
      let target = name;
      if (target === undefined) {
        const candidates = servers.rows().filter((row) => eligible(signIns, row, action as Action));
        if (candidates.length === 0) {
          ctx.ui.notify(`No MCP server to ${action}.`, "info");
          return;
        }
        target = candidates.length === 1 ? candidates[0]!.name : await ctx.ui.select(`MCP server to ${action}`, candidates.map((c) => c.name));
        if (target === undefined) return;
      }
      await run(signIns, action as Action, target, ctx);
    },
  };
}
