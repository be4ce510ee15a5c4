/**
 * The tools a run offers the model: the built-ins, then SDK and extension tools (a same-named one
 * replaces a built-in), and which of them are active (`--tools`, `--no-tools`, `--exclude-tools`,
 * the `defaultTools` setting). Tools registered later go through the same limits.
 */
import { activatesOnRegistration, isDeclarable, ToolRegistry, type RegisteredTool, type ToolSource } from "../agent/tool-registry.ts";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { Settings } from "../resources/settings.ts";
import { createBuiltinTools, selectTools } from "../tools/index.ts";
import { createToolSearchTool } from "../tools/tool-search.ts";
import type { AnyTool } from "../tools/types.ts";
import type { RuntimeConfig } from "./config.ts";

export interface AddedTool {
  tool: AnyTool;
  source: ToolSource;
}

export function selectRunTools(
  config: Pick<RuntimeConfig, "tools" | "noTools" | "excludeTools">,
  settings: Settings,
  added: readonly AddedTool[],
  warnings: string[],
  /** The credential rule the model's commands are run without (the model registry's). */
  credentials: () => CredentialVars,
): ToolRegistry {
  const all = new Map<string, RegisteredTool>();
  const builtins: Record<string, AnyTool> = createBuiltinTools({
    ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
    ...(settings.shellCommandPrefix ? { shellCommandPrefix: settings.shellCommandPrefix } : {}),
    ...(settings.shellEnvPassthrough ? { shellEnvPassthrough: settings.shellEnvPassthrough } : {}),
    credentials,
    autoResizeImages: settings.images?.autoResize ?? true,
  });
  for (const tool of Object.values(builtins)) all.set(tool.name, { tool, source: { kind: "builtin" } });
  for (const entry of added) all.set(entry.tool.name, entry);
  // Upstream's built-in tool_search, inactive until named and listed after the extensions' tools
  // (an extension's own tool_search replaces it); it works on the registry made below.
  let registry: ToolRegistry | undefined;
  const search = createToolSearchTool({
    all: () => registry?.all().map((entry) => entry.tool) ?? [],
    activeNames: () => registry?.activeToolNames ?? [],
    setActive: (names) => registry?.setActive(names),
  });
  if (!all.has(search.name)) all.set(search.name, { tool: search, source: { kind: "builtin" } });
  const byName = Object.fromEntries([...all].map(([name, entry]) => [name, entry.tool]));
  const selection = selectTools(byName, {
    tools: config.tools ? [...config.tools] : settings.defaultTools,
    toolsSource: config.tools ? "--tools" : "the defaultTools setting",
    noTools: config.noTools ?? false,
    exclude: config.excludeTools ? [...config.excludeTools] : [],
  });
  warnings.push(...selection.warnings);
  // An extension's tool is active unless its exposure, `defaultActive: false` or the limits keep
  // it out, also when it takes the name of a built-in that is off by default (upstream:
  // registering activates). Naming a tool activates only one that can be declared; a hidden
  // tool is never active.
  const named = config.tools ?? (config.noTools ? [] : (settings.defaultTools ?? []));
  const active = selection.tools.filter((tool) => isDeclarable(tool) && (named.includes(tool.name) || activatesOnRegistration(tool)));
  for (const entry of added) {
    if (entry.source.kind !== "extension" || active.some((t) => t.name === entry.tool.name)) continue;
    const name = entry.tool.name;
    if (!isDeclarable(entry.tool) || config.excludeTools?.includes(name)) continue;
    if (!named.includes(name) && (!activatesOnRegistration(entry.tool) || config.noTools || config.tools)) continue;
    active.push(entry.tool);
  }
  registry = new ToolRegistry([...all.values()], active, {
    ...(config.tools ? { allowlist: config.tools } : {}),
    noTools: config.noTools ?? false,
    ...(config.excludeTools ? { exclude: config.excludeTools } : {}),
    ...(!config.tools && !config.noTools && settings.defaultTools ? { named: settings.defaultTools } : {}),
  });
  return registry;
}
