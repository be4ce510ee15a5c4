/**
 * `/mcp` before MCP is loaded, and what it shares with the real command (mcp-command.ts). Kept
 * apart so that a run registering it does not import the real command's sign-in and OAuth
 * modules, which only a run using MCP needs.
 */
import type { ArgumentCompletion, CommandDefinition } from "../extensions/commands.ts";

export const ACTIONS = ["reconnect", "enable", "disable", "login", "logout"] as const;
export type Action = (typeof ACTIONS)[number];

export function actionCompletions(typed: string): ArgumentCompletion[] {
  return ACTIONS.filter((a) => a.startsWith(typed)).map((a) => ({ value: `${a} `, label: a }));
}

export const MCP_DESCRIPTION = "Manage MCP servers: list them, reconnect, enable or disable, sign in or out";

/**
 * `/mcp` before MCP is loaded: there from the start, as upstream's built-in command is, even with
 * no server configured; its first use loads MCP (`load`) and hands over to the real command.
 */
export function lazyMcpCommand(load: () => Promise<CommandDefinition>, loaded: () => CommandDefinition | undefined): CommandDefinition {
  return {
    name: "mcp",
    description: MCP_DESCRIPTION,
    getArgumentCompletions(prefix) {
      const real = loaded();
      if (real) return real.getArgumentCompletions?.(prefix) ?? null;
      // No server is known before MCP loads: only the action names complete.
      const [action, server] = prefix.trimStart().split(/\s+/);
      return server === undefined ? actionCompletions(action ?? "") : null;
    },
    handler: async (args, ctx) => (await load()).handler(args, ctx),
  };
}
