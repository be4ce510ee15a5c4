/**
 * The `pi` object one extension's factory receives. Registrations are recorded (and sent once
 * the factory has finished, or at once afterwards); actions are host requests and, as upstream,
 * refuse to run while the factory is still loading.
 */
import type { ExtensionAPI, ExtensionHandler, Model, ThinkingLevel, ToolDefinition } from "../api/types.ts";
import type { ToolSpec } from "../protocol.ts";
import { execCommand } from "./exec.ts";
import type { VirtualModelSpec } from "../protocol.ts";
import { jsonPart, providerSpec } from "./providers.ts";
import type { ExtensionRecord } from "./record.ts";
import { fireAndForget, requireActive, type Runtime } from "./runtime.ts";

function toolSpec(tool: ToolDefinition): ToolSpec {
  return {
    name: tool.name,
    label: tool.label ?? tool.name,
    description: tool.description ?? "",
    // TypeBox 1.x schemas are plain JSON Schema objects; the JSON round trip drops symbols.
    parameters: plainJson(tool.parameters ?? { type: "object", properties: {} }),
    ...(tool.promptSnippet !== undefined ? { promptSnippet: tool.promptSnippet } : {}),
    ...(tool.promptGuidelines !== undefined ? { promptGuidelines: tool.promptGuidelines } : {}),
    ...(tool.executionMode !== undefined ? { executionMode: tool.executionMode } : {}),
    ...(tool.exposure !== undefined ? { exposure: tool.exposure } : {}),
    ...(tool.defaultActive !== undefined ? { defaultActive: tool.defaultActive } : {}),
    ...(tool.namespace !== undefined ? { namespace: plainJson(tool.namespace) as ToolSpec["namespace"] } : {}),
    ...(tool.annotations !== undefined ? { annotations: plainJson(tool.annotations) as ToolSpec["annotations"] } : {}),
    ...(tool.outputSchema !== undefined ? { outputSchema: plainJson(tool.outputSchema) } : {}),
  };
}

/** A schema or option object as JSON (TypeBox's symbols and functions do not cross the socket). */
function plainJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

export function createPi(runtime: Runtime, record: ExtensionRecord): ExtensionAPI {
  const registered = (): void => {
    if (record.announced) runtime.flushRegistrations(record);
  };
  const act = (method: string, params: unknown): void => {
    requireActive(record);
    fireAndForget(runtime, record, method, params);
  };
  return {
    on(event: string, handler: ExtensionHandler) {
      let list = record.handlers.get(event);
      if (!list) {
        record.handlers.set(event, (list = []));
        record.addEvent(event);
        registered();
      }
      list.push(handler);
      return () => {
        const i = list.indexOf(handler);
        if (i >= 0) list.splice(i, 1);
      };
    },
    registerTool(tool) {
      const def = tool as unknown as ToolDefinition;
      record.tools.set(def.name, def);
      record.addTool(toolSpec(def));
      registered();
    },
    registerCommand(name, options) {
      record.commands.set(name, options);
      record.addCommand({ name, ...(options.description ? { description: options.description } : {}), hasCompletions: !!options.getArgumentCompletions });
      registered();
    },
    registerShortcut(key, options) {
      record.shortcuts.set(key, options as never);
      record.addShortcut({ key, ...(options.description ? { description: options.description } : {}) });
      registered();
    },
    registerFlag(name, options) {
      record.flags.set(name, options);
      record.addFlag({ name, type: options.type, ...(options.description ? { description: options.description } : {}), ...(options.default !== undefined ? { default: options.default } : {}) });
      registered();
    },
    getFlag(name) {
      const flag = record.flags.get(name);
      if (!flag) return undefined;
      return Object.hasOwn(runtime.flags, name) ? runtime.flags[name] : flag.default;
    },
    registerMessageRenderer(customType) {
      record.addRenderer(customType);
      registered();
    },
    registerEntryRenderer() {},
    registerToolRenderer(resolver) {
      if (typeof resolver !== "function") throw new TypeError("registerToolRenderer expects a function (toolName, next) => renderers");
      record.toolRenderers.push(resolver);
    },
    registerMarkdownTransformer() {},
    sendMessage(message, options) {
      act("agent.sendMessage", { message, ...(options ? { options } : {}) });
    },
    sendUserMessage(content, options) {
      act("agent.sendUserMessage", { content, ...(options ? { options } : {}) });
    },
    appendEntry(customType, data) {
      act("session.appendEntry", data === undefined ? { customType } : { customType, data });
    },
    setSessionName(name) {
      act("session.setName", { name });
    },
    getSessionName() {
      requireActive(record);
      return runtime.state.value.sessionName;
    },
    setLabel(entryId, label) {
      act("session.setLabel", { entryId, label: label ?? null });
    },
    exec(command, args, options) {
      return execCommand(command, args, runtime.state.value.cwd, options);
    },
    getActiveTools() {
      requireActive(record);
      return [...runtime.state.value.activeTools];
    },
    getAllTools() {
      requireActive(record);
      // Pi's fields only: the output schema and execution mode are in the state for `ctx.tools`.
      return runtime.state.value.allTools.map(({ outputSchema: _schema, executionMode: _mode, ...info }) => ({ ...info }));
    },
    getSettings() {
      requireActive(record);
      // A copy, as upstream's: changing it changes nothing in pig.
      return structuredClone(runtime.state.value.settings ?? {});
    },
    setActiveTools(names) {
      act("tools.setActive", { names });
    },
    getCommands() {
      requireActive(record);
      return runtime.state.value.commands.map((c) => ({ ...c }));
    },
    async setModel(model: Model) {
      if (!record.active) throw new Error("Extension runtime not initialized");
      const r = await runtime.peer.request<{ ok?: boolean } | null>("model.set", { provider: model.provider, id: model.id });
      return r?.ok === true;
    },
    getThinkingLevel() {
      requireActive(record);
      return runtime.state.value.thinkingLevel;
    },
    setThinkingLevel(level: ThinkingLevel) {
      act("thinking.set", { level });
    },
    registerProvider(nameOrProvider, config) {
      const spec = providerSpec(nameOrProvider, config);
      record.providers.set(spec.name, spec.live);
      record.addProvider({ name: spec.name, config: spec.config });
      registered();
    },
    unregisterProvider(name) {
      record.providers.delete(name);
      record.addProvider({ name, config: { unregister: true } });
      registered();
    },
    registerVirtualModel(definition) {
      const { route, ...spec } = definition;
      if (typeof route !== "function") throw new Error(`Virtual model ${spec.provider}/${spec.id} needs a route function.`);
      record.virtualModels.set(`${spec.provider}/${spec.id}`, route.bind(definition));
      record.addVirtualModel(jsonPart(spec) as VirtualModelSpec);
      registered();
    },
    unregisterVirtualModel(provider, id) {
      record.virtualModels.delete(`${provider}/${id}`);
      record.addVirtualModel({ provider, id, unregister: true });
      registered();
    },
    // Checked here, as upstream throws at the call; the host connects them (src/mcp/).
    registerMcpServer(name, config) {
      const { validateServerEntry, mcpNamespace } = mcpRules();
      const checked = validateServerEntry(name, config);
      if (typeof checked === "string") throw new Error(`Invalid MCP server registered by extension "${record.path}": ${checked}`);
      for (const other of runtime.records.values()) {
        for (const taken of other.mcpServers.keys()) {
          if (other === record && taken === name) continue;
          if (taken === name) throw new Error(`MCP server "${name}" is already registered by extension "${other.path}"`);
          if (mcpNamespace(taken) === mcpNamespace(name)) throw new Error(`MCP server "${name}" conflicts with registered server "${taken}"`);
        }
      }
      const copy = structuredClone(config) as Record<string, unknown>;
      record.mcpServers.set(name, copy);
      record.addMcpServer(name, copy);
      registered();
    },
    unregisterMcpServer(name) {
      if (!record.mcpServers.delete(name)) return;
      record.addMcpServer(name, null);
      registered();
    },
    getMcpServers() {
      return [...runtime.records.values()].flatMap((r) => [...r.mcpServers].map(([name, config]) => ({ name, config: structuredClone(config), extensionPath: r.path })));
    },
    events: runtime.bus.api(),
  };
}

/**
 * The MCP configuration's rules, loaded the first time an extension registers a server: their
 * schemas and `node:crypto` (MCP tool names) cost every runner ~5 ms of start-up otherwise, for
 * a call few extensions make. `registerMcpServer` throws at the call, as upstream's does, so the
 * rules are loaded synchronously (`require`).
 */
function mcpRules(): Pick<typeof import("../../mcp/config.ts"), "validateServerEntry"> & Pick<typeof import("../../mcp/naming.ts"), "mcpNamespace"> {
  const { validateServerEntry } = require("../../mcp/config.ts") as typeof import("../../mcp/config.ts");
  const { mcpNamespace } = require("../../mcp/naming.ts") as typeof import("../../mcp/naming.ts");
  return { validateServerEntry, mcpNamespace };
}
