/**
 * The environment an extension process starts with: pig's own, minus credentials (an extension
 * is third-party code and gets no keys unless its manifest asks for them by name; the rule is
 * ai/credential-vars.ts, shared with the bash tool), plus the three launch variables, and Bun's
 * transpiler cache pointed at pig's cache folder.
 */
import { CredentialVars, withoutCredentials } from "../../ai/credential-vars.ts";
import { privateCacheDir } from "../../util/cache-dir.ts";
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
  env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ??= transpilerCachePath(options.base);
  Object.assign(env, options.extra ?? {});
  env[ENV_SOCKET] = options.socketPath;
  env[ENV_TOKEN] = options.token;
  env[ENV_PROTOCOL] = PROTOCOL;
  return env;
}

/**
 * Bun's transpiler cache for extension processes: `<pig's cache folder>/transpiler`, this user's
 * alone (0700), with every folder above it safe (util/dir-safety.ts), or "0" (no cache) when it
 * cannot be had so. The runner runs what it finds there: another user able to put a file in it
 * would run code as this one. A folder of ours that nobody else could write to (a release before
 * this check made it 0755) is narrowed to 0700; one that others could write to is not used.
 */
export function transpilerCachePath(base: Record<string, string | undefined>): string {
  try {
    return privateCacheDir("transpiler", "the extension runner's transpiler cache", { env: base, narrowOwn: true });
  } catch {
    return "0";
  }
}
