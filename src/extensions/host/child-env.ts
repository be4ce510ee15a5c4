/**
 * The environment an extension process starts with: pig's own, minus credentials (an extension
 * is third-party code and gets no keys unless its manifest asks for them by name; the rule is
 * ai/credential-vars.ts, shared with the bash tool), plus the three launch variables, and Bun's
 * transpiler cache pointed at pig's cache folder.
 */
import { join } from "node:path";
import { CredentialVars, withoutCredentials } from "../../ai/credential-vars.ts";
import { pigCacheDir } from "../../util/cache-dir.ts";
import { ENV_PROTOCOL, ENV_SOCKET, ENV_TOKEN, PROTOCOL } from "../protocol.ts";

const DEFAULT_CREDENTIALS = new CredentialVars();

/** Whether `name` is a credential by the rule alone (no configuration's names). */
export function isCredentialVar(name: string): boolean {
  return DEFAULT_CREDENTIALS.has(name);
}

export interface ChildEnvOptions {
  base: Record<string, string | undefined>;
  socketPath: string;
  token: string;
  /** Variables the manifest asks for despite the filter. */
  allow?: readonly string[];
  /** The credential rule with the run's configured names; the catalogue's and the patterns without one. */
  credentials?: CredentialVars;
  extra?: Record<string, string>;
}

export function childEnv(options: ChildEnvOptions): Record<string, string> {
  const env = withoutCredentials(options.base, options.credentials ?? DEFAULT_CREDENTIALS, options.allow);
  // A leftover BUN_BE_BUN would turn pig's runner into the plain bun CLI.
  delete env.BUN_BE_BUN;
  // Bun keeps transpiled modules in ~/.bun unless told otherwise; the runner's go in pig's cache.
  env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ??= join(pigCacheDir(options.base), "transpiler");
  Object.assign(env, options.extra ?? {});
  env[ENV_SOCKET] = options.socketPath;
  env[ENV_TOKEN] = options.token;
  env[ENV_PROTOCOL] = PROTOCOL;
  return env;
}
