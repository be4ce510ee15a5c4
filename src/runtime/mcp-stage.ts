/**
 * MCP for a run, loaded only when there is something to connect: an `mcp.json` (the user's, or
 * a trusted project's) or a server an extension registered. Until then nothing of src/mcp/ is
 * even imported, so a run without MCP starts as fast as before. An extension that registers its
 * own `/mcp` (pi-mcp-adapter) replaces the built-in support, as in upstream: pig then reads no
 * `mcp.json` and connects no registered server.
 *
 * The servers connect in the background once the session exists; their tools join the session's
 * tool registry as they arrive. The first prompt waits for the servers whose tools are declared,
 * up to upstream's bound, so its request declares them; `tool_search` waits for the servers still
 * connecting, so it can load their deferred tools; a server registered later does not hold up a
 * prompt. Every prompt's system prompt lists the servers with deferred tools (`mcp_servers`).
 */
import { NO_HOOKS, type AgentHooks } from "../agent/hooks.ts";
import type { ToolRegistry } from "../agent/tool-registry.ts";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { CommandDefinition } from "../extensions/commands.ts";
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { McpServers, RegisteredServer } from "../mcp/servers.ts";
import { hasMcpConfig } from "../mcp/paths.ts";
import { TOOL_SEARCH_NAME } from "../tools/tool-search.ts";
import { VERSION } from "../version.ts";
import { lazyMcpCommand } from "./mcp-lazy-command.ts";

export interface McpStageInput {
  agentDir: string;
  cwd: string;
  trusted: boolean;
  interactive: boolean;
  env: Readonly<Record<string, string | undefined>>;
  credentials: () => CredentialVars;
  registries: ExtensionRegistries;
  /** The servers extensions registered now, and the way to hear of changes. */
  registered(): RegisteredServer[];
  onRegisteredChange(listener: () => void): void;
  /** Tells the user something once (the run's notices: stderr, or a notice line). */
  say(text: string): void;
}

export interface McpRun {
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
  const configured = hasMcpConfig(input.agentDir, input.cwd, input.trusted);
  let registry: ToolRegistry | undefined;
  let servers: McpServers | undefined;
  let loading: Promise<McpServers> | undefined;
  let command: CommandDefinition | undefined;
  let closed = false;

  const load = (): Promise<McpServers> =>
    (loading ??= Promise.all([import("../mcp/servers.ts"), import("../mcp/oauth/index.ts"), import("./mcp-command.ts")]).then(([{ McpServers }, { McpAuthorizers }, { mcpCommand }]) => {
      // A server's sign-in follows its current entry in mcp.json (its `oauth` settings).
      const authorizers = new McpAuthorizers({ agentDir: input.agentDir, env: input.env as NodeJS.ProcessEnv, oauthOf: (name) => made.find(name)?.config.oauth });
      const made: McpServers = new McpServers({
        agentDir: input.agentDir,
        cwd: input.cwd,
        trusted: input.trusted,
        launch: { cwd: input.cwd, env: input.env, credentials: input.credentials, authorizerFor: (name, url) => authorizers.for(name, url) },
        info: { name: "pig", version: VERSION },
        tools: {
          register: (tool, server) => registry?.register(tool, { kind: "mcp", server }),
          unregister: (name) => void registry?.unregister(name),
          activate: (name) => {
            const active = registry?.activeToolNames ?? [];
            if (registry?.get(name) && !active.includes(name)) registry.setActive([...active, name]);
          },
        },
        report: (text) => input.say(text),
      });
      command = mcpCommand(made, input.interactive, { servers: made, authorizers, env: input.env, interactive: input.interactive });
      servers = made;
      return made;
    }));

  // Loaded now when configured, else when an extension first registers a server.
  if (configured || input.registered().length > 0) await load();
  /** Set once the servers were started (with the session's registry): later changes go to them. */
  let running: McpServers | undefined;
  const startOnce = (made: McpServers) => {
    if (running || closed || !registry) return;
    running = made;
    made.start(input.registered());
  };
  // `/mcp` exists from the start, configured or not; its first use loads MCP if nothing did yet.
  const loadCommand = async (): Promise<CommandDefinition> => {
    const made = await load();
    startOnce(made);
    return command!;
  };
  input.registries.commands.register(lazyMcpCommand(loadCommand, () => command), BUILTIN_SOURCE);
  input.onRegisteredChange(() => {
    if (closed) return;
    if (running) {
      for (const error of running.setRegistered(input.registered())) input.say(error);
      return;
    }
    // Several registrations in a row while the module loads start it once, with all of them.
    if (input.registered().length > 0 && registry) void load().then(startOnce);
  });

  return {
    hooks: (base) =>
      servers
        ? {
            ...base,
            beforeAgentStart: async (event, signal) => {
              await servers?.waitForStartup(signal);
              // The options were made before the wait: the tools that arrived meanwhile are active too
              // (a handler returning the options would otherwise withdraw them).
              if (registry) event.systemPromptOptions.selectedTools = [...registry.activeToolNames];
              // Upstream's built-in MCP extension sets the section before the other extensions see the options.
              if (!servers?.addServersSection(event.systemPromptOptions.sections)) return base.beforeAgentStart(event, signal);
              const result = await base.beforeAgentStart(event, signal);
              return { ...result, systemPromptOptions: result?.systemPromptOptions ?? event.systemPromptOptions };
            },
            toolCall: async (event, signal) => {
              if (event.toolName === TOOL_SEARCH_NAME) await servers?.enabledSettled(signal);
              return base.toolCall(event, signal);
            },
            // Without extensions nothing else is asked for.
            listens: (event) => event === "before_agent_start" || event === "tool_call" || (base !== NO_HOOKS && base.listens(event)),
          }
        : base,
    start(tools) {
      registry = tools;
      if (servers) startOnce(servers);
    },
    async close() {
      closed = true;
      await servers?.close();
    },
  };
}
