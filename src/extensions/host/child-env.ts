/**
 * The environment an extension process starts with: pig's own, minus provider credentials (an
 * extension is third-party code and gets no API keys unless its manifest asks for them by name),
 * plus the three launch variables, and Bun's transpiler cache pointed at pig's cache folder.
 */
import { join } from "node:path";
import { pigCacheDir } from "../../util/cache-dir.ts";
import { ENV_PROTOCOL, ENV_SOCKET, ENV_TOKEN, PROTOCOL } from "../protocol.ts";

const CREDENTIAL_PREFIXES = ["ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "AWS_", "AZURE_", "MISTRAL_", "GROQ_", "XAI_", "OPENROUTER_", "DEEPSEEK_", "CEREBRAS_", "HF_", "COPILOT_", "GITHUB_COPILOT_"];
const CREDENTIAL_SUFFIXES = ["_API_KEY", "_APIKEY", "_ACCESS_TOKEN", "_AUTH_TOKEN", "_OAUTH_TOKEN", "_SECRET_KEY"];
const CREDENTIAL_NAMES = new Set(["GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN", "PIG_EXT_TOKEN"]);

export function isCredentialVar(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    CREDENTIAL_NAMES.has(upper) ||
    CREDENTIAL_PREFIXES.some((p) => upper.startsWith(p)) ||
    CREDENTIAL_SUFFIXES.some((s) => upper.endsWith(s))
  );
}

export interface ChildEnvOptions {
  base: Record<string, string | undefined>;
  socketPath: string;
  token: string;
  /** Variables the manifest asks for despite the filter. */
  allow?: readonly string[];
  extra?: Record<string, string>;
}

export function childEnv(options: ChildEnvOptions): Record<string, string> {
  const allow = new Set(options.allow ?? []);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.base)) {
    if (v === undefined) continue;
    if (isCredentialVar(k) && !allow.has(k)) continue;
    env[k] = v;
  }
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
