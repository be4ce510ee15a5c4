/**
 * Where `mcp.json` files are, in a module of its own: a run asks whether any exists before it
 * loads anything else of MCP, so a run without them loads nothing but this.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The user's and (trusted) the project's files, in the order they are read. */
export function mcpConfigPaths(agentDir: string, cwd: string, trusted: boolean): { user: string; project?: string } {
  return { user: join(agentDir, "mcp.json"), ...(trusted ? { project: join(cwd, ".pig", "mcp.json") } : {}) };
}

/** Whether any file MCP reads exists: without one (and without registered servers) MCP is not loaded. */
export function hasMcpConfig(agentDir: string, cwd: string, trusted: boolean): boolean {
  const paths = mcpConfigPaths(agentDir, cwd, trusted);
  return existsSync(paths.user) || (paths.project !== undefined && existsSync(paths.project));
}
