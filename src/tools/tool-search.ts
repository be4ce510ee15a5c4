/**
 * `tool_search` (upstream Pi 1.x ships it as a built-in extension): finds tools that are not
 * declared to the model — `deferred` and `codemode` ones — by a ranked search of their names,
 * descriptions, argument schemas and namespaces, and activates the matches, so the next request
 * declares them. Activating goes through the active tool set, so the session records it like any
 * other change of the tools. Registered inactive: `--tools`, the `defaultTools` setting or
 * `setActiveTools` turn it on; an extension's own `tool_search` replaces it.
 */
import * as v from "valibot";
import { toolJsonSchema } from "./json-schema.ts";
import { rankedDocument, rankTools } from "./tool-ranking.ts";
import type { AnyTool, ToolResult } from "./types.ts";

export const TOOL_SEARCH_NAME = "tool_search";
const DEFAULT_LIMIT = 8;

/** What the tool reads and changes of the session's tools. */
export interface ToolSearchPort {
  all(): readonly AnyTool[];
  activeNames(): readonly string[];
  setActive(names: readonly string[]): void;
}

const ToolSearchArguments = v.object({
  query: v.pipe(v.string(), v.description("Words describing the capability you need, or a tool's name.")),
  limit: v.optional(v.pipe(v.number(), v.description(`How many tools to load at most (default ${DEFAULT_LIMIT}).`))),
});

const DESCRIPTION = [
  "Find and load tools that are not offered to you yet.",
  "",
  `Some tools, MCP servers' tools among them, are only available after a search. Describe what you need; \`${TOOL_SEARCH_NAME}\` loads the best matches, and they can be called from your next call on.`,
].join("\n");

function searchable(tool: AnyTool): boolean {
  return tool.exposure === "deferred" || tool.exposure === "codemode";
}

export function createToolSearchTool(port: ToolSearchPort): AnyTool {
  return {
    name: TOOL_SEARCH_NAME,
    label: TOOL_SEARCH_NAME,
    description: DESCRIPTION,
    parameters: toolJsonSchema(ToolSearchArguments),
    promptSnippet: "Find and load tools that are not offered yet",
    // Searching changes what the model sees; it is not something another tool calls.
    exposure: "model-only",
    defaultActive: false,
    async execute(_toolCallId, raw): Promise<ToolResult<{ loaded: string[] }>> {
      const { query, limit = DEFAULT_LIMIT } = v.parse(ToolSearchArguments, raw);
      if (query.trim() === "") throw new Error("query must not be empty");
      if (!Number.isInteger(limit) || limit <= 0) throw new Error("limit must be a positive integer");
      const active = port.activeNames();
      const candidates = port.all().filter((tool) => searchable(tool) && !active.includes(tool.name));
      const names = rankTools(query, candidates.map((tool) => rankedDocument(tool, tool.namespace)), limit);
      if (names.length > 0) port.setActive([...active, ...names]);
      const lines = names.map((name) => {
        const description = candidates.find((tool) => tool.name === name)?.description ?? "";
        return `- ${name}: ${description.trim().split(/\r?\n/)[0] ?? ""}`;
      });
      const text = names.length === 0 ? "No matching tools found." : `Loaded ${names.length} tool${names.length === 1 ? "" : "s"}, callable from your next call:\n${lines.join("\n")}`;
      return { content: [{ type: "text", text }], details: { loaded: names } };
    },
  };
}
