/** The command line's part of a run: `CliArgs` as the `RuntimeConfig` the runtime is built from. */
import type { ExtensionRegistries } from "../extensions/registries.ts";
import type { RuntimeConfig, SessionChoice } from "../runtime/config.ts";
import type { ResourceFlags } from "../resources/load-resources.ts";
import { resolveExtensionFlags, toolList, type CliArgs } from "./args.ts";


/** `--no-session` wins over `--session`, which wins over `--continue`. */
function sessionChoice(args: CliArgs): SessionChoice {
  if (args.noSession) return { kind: "none" };
  if (args.session) return { kind: "open", pathOrId: args.session };
  if (args.continue) return { kind: "continue" };
  return { kind: "new" };
}

function resourceFlags(args: CliArgs): ResourceFlags {
  return {
    ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
    ...(args.appendSystemPrompt ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
    ...(args.skill ? { skills: args.skill } : {}),
    ...(args.promptTemplate ? { promptTemplates: args.promptTemplate } : {}),
    noSkills: args.noSkills ?? false,
    noPromptTemplates: args.noPromptTemplates ?? false,
    ...(args.theme ? { themes: args.theme } : {}),
    noThemes: args.noThemes ?? false,
    noContextFiles: args.noContextFiles ?? false,
  };
}

export function runtimeConfigFromArgs(
  args: CliArgs,
  options: { cwd: string; interactive: boolean; env?: NodeJS.ProcessEnv; registries?: ExtensionRegistries },
): RuntimeConfig {
  const tools = toolList(args.tools);
  const excludeTools = toolList(args.excludeTools);
  const models = toolList(args.models);
  const trust = args.trust ? true : args.noTrust ? false : undefined;
  return {
    cwd: options.cwd,
    env: options.env ?? process.env,
    interactive: options.interactive,
    ...(args.model ? { model: args.model } : {}),
    ...(args.piglet ? { piglet: args.piglet } : {}),
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.apiKey ? { apiKey: args.apiKey } : {}),
    ...(args.thinking ? { thinking: args.thinking } : {}),
    session: sessionChoice(args),
    ...(args.sessionDir !== undefined ? { sessionDir: args.sessionDir } : {}),
    resources: resourceFlags(args),
    ...(tools ? { tools } : {}),
    noTools: args.noTools ?? false,
    ...(excludeTools ? { excludeTools } : {}),
    ...(args.noMcp ? { noMcp: true } : {}),
    ...(models ? { models } : {}),
    ...(trust !== undefined ? { trust } : {}),
    ...(args.name !== undefined ? { name: args.name } : {}),
    extensions: {
      ...(args.extension ? { paths: args.extension } : {}),
      noExtensions: args.noExtensions ?? false,
      mode: args.mode === "rpc" ? "rpc" : args.mode === "json" ? "json" : args.print || !options.interactive ? "print" : "interactive",
      ...(options.registries ? { registries: options.registries } : {}),
      flagValues: (flags) => {
        resolveExtensionFlags(args, flags);
        return flags.valuesFor();
      },
    },
  };
}
