/**
 * MCP for a run, loaded only when there is something to connect: an `mcp.json` (the user's, or
 * a trusted project's). Without one nothing of src/mcp/ is even imported, so a run without MCP
 * starts as fast as before. An extension that registers its own `/mcp` (pi-mcp-adapter) replaces
 * the built-in support, as in upstream: pig then reads no `mcp.json` at all.
 *
 * The servers connect in the background once the session exists; their tools join the session's
 * tool registry as they arrive. The first prompt waits for the servers still connecting, up to
 * upstream's bound, so its request declares their tools.
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { ToolRegistry } from "../agent/tool-registry.ts";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { McpServers } from "../mcp/servers.ts";
import { VERSION } from "../version.ts";
import { mcpCommand } from "./mcp-command.ts";

export interface McpStageInput {
  agentDir: string;
  cwd: string;
  trusted: boolean;
  interactive: boolean;
  env: Readonly<Record<string, string | undefined>>;
  credentials: () => CredentialVars;
  registries: ExtensionRegistries;
  /** Tells the user something once (the run's notices: stderr, or a notice line). */
  say(text: string): void;
}

export interface McpRun {
  servers: McpServers;
  /** The session's hooks with the first prompt's wait for servers still connecting. */
  hooks(base: AgentHooks): AgentHooks;
  /** Once the session exists: the tools go to its registry, and the servers start connecting. */
  start(tools: ToolRegistry): void;
  close(): Promise<void>;
}

/** Where upstream's built-in command lives: the built-in MCP extension. */
const BUILTIN_SOURCE = { path: "builtin:mcp", source: "builtin", scope: "user", origin: "top-level" } as const;

export async function prepareMcp(input: McpStageInput): Promise<McpRun | undefined> {
  if (input.registries.commands.commands().some((command) => command.name === "mcp")) return undefined;
  const { hasMcpConfig } = await import("../mcp/config.ts");
  if (!hasMcpConfig(input.agentDir, input.cwd, input.trusted)) return undefined;
  const { McpServers } = await import("../mcp/servers.ts");
  const { McpAuthorizers } = await import("../mcp/oauth/index.ts");
  let registry: ToolRegistry | undefined;
  // A server's sign-in follows its current entry in mcp.json (its `oauth` settings).
  const authorizers = new McpAuthorizers({ agentDir: input.agentDir, env: input.env as NodeJS.ProcessEnv, oauthOf: (name) => servers.find(name)?.config.oauth });
  const servers = new McpServers({
    agentDir: input.agentDir,
    cwd: input.cwd,
    trusted: input.trusted,
    launch: { cwd: input.cwd, env: input.env, credentials: input.credentials, authorizerFor: (name, url) => authorizers.for(name, url) },
    info: { name: "pig", version: VERSION },
    tools: {
      register: (tool, server) => registry?.register(tool, { kind: "mcp", server }),
      unregister: (name) => void registry?.unregister(name),
    },
    report: (text) => input.say(text),
  });
  input.registries.commands.register(mcpCommand(servers, input.interactive, { servers, authorizers, env: input.env, interactive: input.interactive }), BUILTIN_SOURCE);
  return {
    servers,
    hooks: (base) => ({
      ...base,
      beforeAgentStart: async (event, signal) => {
        await servers.waitForStartup(signal);
        return base.beforeAgentStart(event, signal);
      },
      // Without extensions nothing else is asked for.
      listens: (event) => event === "before_agent_start" || (base !== NO_HOOKS && base.listens(event)),
    }),
    start(tools) {
      registry = tools;
      servers.start();
    },
    close: () => servers.close(),
  };
}
