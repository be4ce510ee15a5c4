/**
 * Names of MCP tools as the model sees them, by upstream Pi 1.6.0's rules (Codex's too):
 * `mcp__<server>__<tool>` with everything but letters, digits and `_` turned into `_`; a name
 * over the providers' 64 characters, or one two tools would share after that, gets a hash suffix.
 */
import { createHash } from "node:crypto";

const MAX_TOOL_NAME = 64;

export function mcpToolName(server: string, tool: string, isTaken: (name: string) => boolean = () => false): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME && !isTaken(name)) return name;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** A server's namespace: names that differ only in `-` and `_` share one. */
export function mcpNamespace(server: string): string {
  return `mcp__${server.replace(/-/g, "_")}`;
}

/** The first line of the configured description, else of the server's instructions. */
export function mcpServerSummary(description: string | undefined, instructions: string | undefined): string {
  const text = description?.trim() || instructions?.trim() || "";
  return (text.split("\n", 1)[0] ?? "").trim();
}
