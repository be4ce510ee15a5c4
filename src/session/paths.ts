/** Where sessions live: the agent directory, the per-project session directory, overrides. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { sha256Hex } from "../util/light-crypto.ts";

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

/** The longest file name most file systems take (NAME_MAX), in bytes. */
const NAME_MAX = 255;
/** How much of a long directory's flattened path its shortened name keeps: its end. */
const KEPT_TAIL_BYTES = 200;

/**
 * The directory name for a cwd: `/home/u/proj` → `--home-u-proj--` (as upstream). A name that
 * would be longer than a file name may be is shortened to the end of it (the project's own
 * folder is last) and a hash of the whole cwd: `--<end>_<16 hex>--`, the same on every run.
 */
export function sessionDirName(cwd: string): string {
  const flat = cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  const name = `--${flat}--`;
  if (Buffer.byteLength(name) <= NAME_MAX) return name;
  const hash = sha256Hex(cwd).slice(0, 16);
  return `--${tailWithin(flat, KEPT_TAIL_BYTES)}_${hash}--`;
}

/** The longest end of `text` within `bytes` bytes of UTF-8, whole characters only. */
function tailWithin(text: string, bytes: number): string {
  const chars = Array.from(text);
  let used = 0;
  let from = chars.length;
  while (from > 0) {
    const size = Buffer.byteLength(chars[from - 1]!);
    if (used + size > bytes) break;
    used += size;
    from--;
  }
  return chars.slice(from).join("");
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
