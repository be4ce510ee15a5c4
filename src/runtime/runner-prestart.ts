/**
 * Whether to start the shared TypeScript runner before the run's extensions are known
 * (extensions/host/prestart.ts): when the command line names an extension that is not a manifest,
 * or the user's extension folder holds one. Settings, packages and the project's folder are read
 * later (the project's only once trust is known); a run that loads extensions only from those
 * starts its runner then, as before. A guess that finds no shared runner costs a process
 * started and stopped beside pig's own start-up.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { PrestartedRunner } from "../extensions/host/prestart.ts";
import { agentDir as defaultAgentDir } from "../session/paths.ts";
import type { ExtensionChoice, RuntimeConfig } from "./config.ts";

/** The folder pig keeps the extensions' logs in, beside the user's extensions. */
const LOGS = "logs";

export function expectsSharedRunner(choice: ExtensionChoice, agentDir: string): boolean {
  if ((choice.paths ?? []).some((path) => !path.endsWith(".json"))) return true;
  if (choice.noExtensions) return false;
  try {
    return readdirSync(join(agentDir, "extensions")).some((name) => name !== LOGS && !name.startsWith("."));
  } catch {
    return false;
  }
}

/** The host's modules load only for a run that starts a runner (a run without extensions never loads them). */
export async function prestartRunner(input: {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  env: NodeJS.ProcessEnv;
  credentials: () => CredentialVars;
}): Promise<PrestartedRunner | undefined> {
  if (!expectsSharedRunner(input.choice, input.agentDir)) return undefined;
  const { PrestartedRunner } = await import("../extensions/host/prestart.ts");
  return PrestartedRunner.start({ cwd: input.cwd, agentDir: input.agentDir, env: input.env, credentials: input.credentials });
}

/**
 * The runner for `config`, started before the runtime's modules load: the command line calls
 * this first and hands the result to createRuntime (`prestartedRunner`), so the runner's own
 * start-up runs beside the loading of pig's instead of after it. No model registry exists yet;
 * the credential names come from the agent dir's models.json and auth.json, which are what the
 * registry reads them from. Providers served in-process (the SDK's) can name keys too: that
 * config waits for the runtime's registry, as before.
 */
export async function prestartRunnerFor(config: RuntimeConfig): Promise<PrestartedRunner | undefined> {
  const agentDir = defaultAgentDir(config.env);
  const choice = config.extensions ?? {};
  if ((config.providers ?? []).length > 0 || !expectsSharedRunner(choice, agentDir)) return undefined;
  const { credentialVarsFromFiles } = await import("../ai/configured-credentials.ts");
  return prestartRunner({ choice, cwd: config.cwd, agentDir, env: config.env, credentials: () => credentialVarsFromFiles(agentDir) });
}
