/** The tools a run offers the model: the built-ins, then SDK and extension tools, then the selection. */
import type { Settings } from "../resources/settings.ts";
import { createBuiltinTools, selectTools } from "../tools/index.ts";
import type { AnyTool } from "../tools/types.ts";
import type { RuntimeConfig } from "./config.ts";

export function selectRunTools(
  config: Pick<RuntimeConfig, "tools" | "noTools" | "excludeTools">,
  settings: Settings,
  added: readonly AnyTool[],
  warnings: string[],
): AnyTool[] {
  const all: Record<string, AnyTool> = createBuiltinTools({
    ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
    ...(settings.shellCommandPrefix ? { shellCommandPrefix: settings.shellCommandPrefix } : {}),
    autoResizeImages: settings.images?.autoResize ?? true,
  });
  // A tool with a built-in's name replaces it.
  for (const tool of added) all[tool.name] = tool;
  const selection = selectTools(all, {
    tools: config.tools ? [...config.tools] : settings.defaultTools,
    toolsSource: config.tools ? "--tools" : "the defaultTools setting",
    noTools: config.noTools ?? false,
    exclude: config.excludeTools ? [...config.excludeTools] : [],
  });
  warnings.push(...selection.warnings);
  return selection.tools;
}
