/**
 * From a server's config to its transport: `${VAR}` (and `${VAR:-default}`) in `env` and
 * `headers` values take the environment's value, a value that starts with `!` is the output of
 * that command, `~/` starts the home directory in `command`, `args` and `cwd`, and a relative
 * `cwd` is the session's. A stdio server gets pig's environment without the model providers'
 * keys (a key reaches its provider only), plus its own `env`.
 */
import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { McpAuthorizer } from "./authorizer.ts";
import type { McpServerConfig } from "./config.ts";
import { HttpTransport } from "./http-transport.ts";
import { StdioTransport } from "./stdio-transport.ts";
import type { McpTransport } from "./transport.ts";

export interface LaunchContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  credentials: () => CredentialVars;
  /** The sign-in of an HTTP server without an Authorization header (src/mcp/oauth/), if any. */
  authorizerFor?: (server: string, url: string) => McpAuthorizer | undefined;
}

function expandHome(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/** One `env` or `headers` value as the server gets it; `where` names it in an error. */
export function resolveConfigValue(value: string, env: LaunchContext["env"], cwd: string, where: string): string {
  if (value.startsWith("!")) {
    const run = spawnSync("sh", ["-c", value.slice(1)], { cwd, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
    if (run.error || run.status !== 0) {
      const why = run.error?.message ?? (run.stderr.trim().split("\n").at(-1) || `exit code ${run.status}`);
      throw new Error(`${where}: the command ${JSON.stringify(value.slice(1))} failed: ${why}`);
    }
    return run.stdout.trim();
  }
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => env[name] || fallback || "");
}

function resolveMap(map: Readonly<Record<string, string>> | undefined, ctx: LaunchContext, where: string): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, resolveConfigValue(value, ctx.env, ctx.cwd, `${where}.${key}`)]));
}

export function createTransport(name: string, config: McpServerConfig, ctx: LaunchContext): McpTransport {
  if (config.transport === "http") {
    const headers = resolveMap(config.headers, ctx, `server "${name}": headers`);
    const hasAuthorization = Object.keys(headers).some((key) => key.toLowerCase() === "authorization");
    const authorizer = hasAuthorization ? undefined : ctx.authorizerFor?.(name, config.url);
    return new HttpTransport({ url: config.url, headers, ...(authorizer ? { authorizer } : {}) });
  }
  // The providers' keys by name only: a server's own token (GITHUB_TOKEN) is what it is run for.
  const credentials = ctx.credentials();
  const base = Object.fromEntries(Object.entries(ctx.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !credentials.isNamed(entry[0])));
  const env = { ...base, ...resolveMap(config.env, ctx, `server "${name}": env`) };
  const cwd = config.cwd ? resolve(ctx.cwd, expandHome(config.cwd)) : ctx.cwd;
  const command = expandHome(config.command);
  return new StdioTransport({
    command: isAbsolute(command) || !command.includes("/") ? command : resolve(cwd, command),
    args: (config.args ?? []).map(expandHome),
    cwd,
    env,
  });
}
