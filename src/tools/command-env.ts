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

/** The inputs of the environment made last, and that environment. */
interface MadeEnv {
  agentDir: string;
  credentials: string;
  passThrough: string;
  /** The base environment's variables, in its order. */
  base: [string, string | undefined][];
  env: Record<string, string>;
}

let made: MadeEnv | undefined;

export function commandEnv(agentDir: string, options: CommandEnvOptions, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const credentials = options.credentials?.() ?? new CredentialVars();
  // Every command the model runs asks again, mostly for the very same environment: the rule is
  // applied to each variable only when a variable, a configured name or an input changed.
  const key = { agentDir, credentials: credentials.key, passThrough: (options.shellEnvPassthrough ?? []).join("\0"), base: Object.entries(base) };
  if (!made || !sameInputs(made, key)) made = { ...key, env: shellEnv(agentDir, withoutCredentials(base, credentials, options.shellEnvPassthrough)) };
  // A copy: the caller may change what it gets.
  return { ...made.env };
}

function sameInputs(a: Omit<MadeEnv, "env">, b: Omit<MadeEnv, "env">): boolean {
  if (a.agentDir !== b.agentDir || a.credentials !== b.credentials || a.passThrough !== b.passThrough || a.base.length !== b.base.length) return false;
  for (let i = 0; i < a.base.length; i++) {
    const [name, value] = a.base[i]!;
    const other = b.base[i]!;
    if (name !== other[0] || value !== other[1]) return false;
  }
  return true;
}
