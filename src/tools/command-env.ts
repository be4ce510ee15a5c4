/**
 * The environment of the commands the model runs (`bash`, `powershell`): pig's own without
 * credentials, so a command such as `env` cannot put a provider key into the tool result, the
 * session file and the next request. The rule is ai/credential-vars.ts; the setting
 * `shellEnvPassthrough` names variables the commands get all the same.
 */
import { CredentialVars, withoutCredentials } from "../ai/credential-vars.ts";
import { shellEnv } from "./shell.ts";

export interface CommandEnvOptions {
  /** The rule with the run's configured names (the model registry's); the catalogue's and the patterns without it. */
  credentials?: () => CredentialVars;
  /** Setting `shellEnvPassthrough`: credentials the commands keep, by exact name. */
  shellEnvPassthrough?: readonly string[];
}

export function commandEnv(agentDir: string, options: CommandEnvOptions, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const credentials = options.credentials?.() ?? new CredentialVars();
  return shellEnv(agentDir, withoutCredentials(base, credentials, options.shellEnvPassthrough));
}
