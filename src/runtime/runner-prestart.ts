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
import type { ExtensionChoice } from "./config.ts";

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
