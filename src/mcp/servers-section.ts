/**
 * The `mcp_servers` section of the system prompt, as upstream Pi 1.6.0 adds it: the enabled
 * servers whose tools are not declared to the model (in pig: `deferred` ones, since `codemode`
 * ones are declared, D68), each with a one-line summary, so the model knows what `tool_search`
 * can load. Bounded like upstream's: 250 characters a description, 4096 for the section. Pure.
 */
import { mcpNamespace, mcpServerSummary } from "./naming.ts";

export const MCP_SERVERS_SECTION = "mcp_servers";
const MAX_DESCRIPTION_CHARS = 250;
export const MAX_SECTION_CHARS = 4096;

export interface SectionServer {
  name: string;
  description?: string;
  instructions?: string;
}

const INTRO = "These MCP servers have tools that are not declared to you yet; find and load them with `tool_search`.";

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? "" : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The section for `servers` (those with deferred tools); undefined when there are none. */
export function renderServersSection(servers: readonly SectionServer[]): string | undefined {
  const listed = [...servers].sort((a, b) => a.name.localeCompare(b.name));
  if (listed.length === 0) return undefined;
  const heads = listed.map((server) => `- ${mcpNamespace(server.name)}`);
  const omitted = (count: number) => (count > 0 ? [`- … and ${count} more server${count === 1 ? "" : "s"}; \`tool_search\` finds their tools too`] : []);
  const size = (kept: number) => [INTRO, ...heads.slice(0, kept), ...omitted(listed.length - kept)].join("\n").length;
  let kept = listed.length;
  while (kept > 0 && size(kept) > MAX_SECTION_CHARS) kept--;
  // Each description also takes a ": " separator.
  const perServer = kept === 0 ? 0 : Math.min(MAX_DESCRIPTION_CHARS, Math.floor((MAX_SECTION_CHARS - size(kept)) / kept) - 2);
  const lines = listed.slice(0, kept).map((server, index) => {
    const summary = perServer > 0 ? shorten(mcpServerSummary(server.description, server.instructions), perServer) : "";
    return summary ? `${heads[index]}: ${summary}` : heads[index]!;
  });
  return [INTRO, ...lines, ...omitted(listed.length - kept)].join("\n");
}
