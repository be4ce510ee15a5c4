/**
 * `/mcp`, registered as upstream registers its built-in MCP extension's command, so it is the
 * same in every mode and listed by RPC `get_commands`. In the interactive mode it opens a list
 * of the servers (state, tool count) and what can be done to the one picked; elsewhere it prints
 * the servers' state. `/mcp reconnect|enable|disable <server>` acts directly in every mode.
 */
import type { CommandDefinition, CommandContext, ArgumentCompletion } from "../extensions/commands.ts";
import type { McpServers, ServerRow } from "../mcp/servers.ts";

export const MCP_USAGE = "Usage: /mcp, /mcp reconnect [server], /mcp enable <server>, /mcp disable <server>";
const ACTIONS = ["reconnect", "enable", "disable"] as const;
type Action = (typeof ACTIONS)[number];

function run(servers: McpServers, action: Action, name: string): Promise<string> {
  if (action === "reconnect") return servers.reconnect(name);
  return servers.setEnabled(name, action === "enable");
}

/** The servers an action applies to: reconnect the enabled ones, enable the disabled, disable the enabled. */
function eligible(row: ServerRow, action: Action): boolean {
  return action === "enable" ? !row.enabled : row.enabled;
}

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
async function manage(servers: McpServers, ctx: CommandContext): Promise<void> {
  const rows = servers.rows();
  if (rows.length === 0) {
    ctx.ui.notify(servers.statusText(), "info");
    return;
  }
  const picked = await ctx.ui.select("MCP servers", rows.map(rowLabel));
  const row = rows.find((r) => rowLabel(r) === picked);
  if (!row) return;
  const choices = [...(row.enabled ? ["Reconnect", "Disable"] : ["Enable"]), "Details"];
  const action = await ctx.ui.select(`${row.name}: ${row.state}`, choices);
  if (action === undefined) return;
  if (action === "Details") {
    ctx.ui.notify(details(row), "info");
    return;
  }
  const message = await run(servers, action.toLowerCase() as Action, row.name);
  ctx.ui.notify(message, servers.find(row.name)?.connection?.state === "failed" ? "error" : "info");
}

export function mcpCommand(servers: McpServers, interactive: boolean): CommandDefinition {
  return {
    name: "mcp",
    description: "Manage MCP servers: list them, reconnect, enable or disable",
    getArgumentCompletions(prefix: string): ArgumentCompletion[] | null {
      const [action, server, ...rest] = prefix.trimStart().split(/\s+/);
      if (rest.length > 0) return null;
      if (server === undefined) return ACTIONS.filter((a) => a.startsWith(action ?? "")).map((a) => ({ value: `${a} `, label: a }));
      if (!(ACTIONS as readonly string[]).includes(action!)) return null;
      const items = servers
        .rows()
        .filter((row) => eligible(row, action as Action) && row.name.startsWith(server))
        .map((row) => ({ value: `${action} ${row.name}`, label: row.name, description: row.state }));
      return items.length > 0 ? items : null;
    },
    async handler(args, ctx) {
      const [action, name, ...extra] = args.trim().split(/\s+/).filter(Boolean);
      if (action === undefined) {
        await servers.settled();
        if (interactive) await manage(servers, ctx);
        else ctx.ui.notify(servers.statusText(), "info");
        return;
      }
      if (extra.length > 0 || !(ACTIONS as readonly string[]).includes(action)) {
        ctx.ui.notify(MCP_USAGE, "warning");
        return;
      }
      let target = name;
      if (target === undefined) {
        const candidates = servers.rows().filter((row) => eligible(row, action as Action));
        if (candidates.length === 0) {
          ctx.ui.notify(`No MCP server to ${action}.`, "info");
          return;
        }
        target = candidates.length === 1 ? candidates[0]!.name : await ctx.ui.select(`MCP server to ${action}`, candidates.map((c) => c.name));
        if (target === undefined) return;
      }
      const message = await run(servers, action as Action, target);
      const failed = servers.find(target)?.connection?.state === "failed" || message.startsWith("No MCP server");
      ctx.ui.notify(message, failed ? "error" : "info");
    },
  };
}
