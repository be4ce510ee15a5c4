/** Where sessions live: the agent directory, the per-project session directory, overrides. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `~` and `~/x` expanded to the home directory. */
export function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return path;
}

/** `PIG_CODING_AGENT_DIR`, else `~/.pig/agent`. */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.PIG_CODING_AGENT_DIR;
  return override ? resolve(expandHome(override)) : join(homedir(), ".pig", "agent");
}

export function sessionsRoot(agent: string): string {
  return join(agent, "sessions");
}

/** The directory name for a cwd: `/home/u/proj` → `--home-u-proj--` (as upstream). */
export function sessionDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

export function defaultSessionDir(cwd: string, agent: string): string {
  return join(sessionsRoot(agent), sessionDirName(cwd));
}

export interface SessionDirChoice {
  /** `--session-dir`. */
  flag?: string | undefined;
  /** The `sessionDir` setting, if any. */
  setting?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

/**
 * The session directory for `cwd`, first match wins: `--session-dir`, then
 * `PIG_CODING_AGENT_SESSION_DIR`, then the `sessionDir` setting, then the per-cwd default.
 * An override is used as it is, without the per-cwd subdirectory.
 */
export function resolveSessionDir(cwd: string, choice: SessionDirChoice = {}): string {
  const env = choice.env ?? process.env;
  const override = choice.flag ?? env.PIG_CODING_AGENT_SESSION_DIR ?? choice.setting;
  if (override) return resolve(expandHome(override));
  return defaultSessionDir(cwd, agentDir(env));
}
