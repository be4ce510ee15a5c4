/**
 * pig's own cache folder: `$XDG_CACHE_HOME/pig`, else `~/.cache/pig`. Things pig can make again
 * (fetched Bun runtimes, the extension runner's transpiled modules) live there, never in another
 * tool's folder.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function pigCacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "pig");
}
