/**
 * An extension written against Pi 1.x imports names only 1.x's packages have, from each package
 * and from subpaths, under both scopes: it loads in the built binary, the names pig implements
 * work, and calling one it does not gives an error naming the module and the name.
 */
import { expect, test } from "bun:test";
import { extensionWorlds, runReportingTool } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

const EXTENSION = `
import { Type } from "@earendil-works/pi-ai";
import { StreamingJsonParser, formatUserAgent } from "@earendil-works/pi-ai";
import { anthropicProvider } from "@earendil-works/pi-ai/providers/anthropic";
import { ToolCallArgumentsStream } from "@earendil-works/pi-ai/utils/streaming-json";
import { createMcpExtension, createToolSearchExtension, formatReadLineRange, truncateHead } from "@earendil-works/pi-coding-agent";
import { runToolCall } from "@earendil-works/pi-agent-core";
import { colorToHex, mixColors, renderFakeCursor, Text } from "@earendil-works/pi-tui";
import { McpClient, createMcpToolName } from "@earendil-works/pi-mcp";
import { authorizeMcp } from "@earendil-works/pi-mcp/oauth";
import { obj, str } from "@earendil-works/pi-schema";
import { renderDeclarations } from "@earendil-works/pi-codemode";
import { telemetryNow } from "@earendil-works/pi-telemetry";
import { createTypedMetrics } from "@mariozechner/pi-telemetry";

function attempt(f) {
  try { f(); return "ran"; } catch (e) { return e.message; }
}

export default function (pi) {
  pi.registerTool({
    name: "upstream_names",
    label: "Upstream names",
    description: "Reports what 1.x names give",
    parameters: Type.Object({}),
    async execute() {
      const report = {
        kinds: [StreamingJsonParser, formatUserAgent, anthropicProvider, createMcpExtension, formatReadLineRange, runToolCall, colorToHex, mixColors, McpClient, createMcpToolName, authorizeMcp, obj, str, renderDeclarations, telemetryNow, createTypedMetrics].map((x) => typeof x),
        truncated: truncateHead("a\\nb\\nc", { maxLines: 1 }).content,
        text: typeof new Text("x", 0, 0).render,
        lineRange: formatReadLineRange(10, 5),
        cursor: renderFakeCursor("x"),
        streamed: (() => {
          const args = new ToolCallArgumentsStream();
          const partial = args.append('{"path": "a.t');
          args.append('s"}');
          return { partial, final: args.finish() };
        })(),
        calls: [
          attempt(() => createToolSearchExtension()),
          attempt(() => new McpClient({})),
          attempt(() => str()),
          attempt(() => anthropicProvider()),
          attempt(() => createTypedMetrics()),
        ],
      };
      return { content: [{ type: "text", text: JSON.stringify(report) }], details: {} };
    },
  });
}
`;

test("an extension importing 1.x-only names from every package loads; a name pig lacks fails only when called, naming module and name", async () => {
  const { w, run, report } = await runReportingTool(world, "upstream_names", { files: { "ext/upstream.ts": EXTENSION }, pigArgs: ["-e", "ext/upstream.ts"] });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  expect(report.kinds).toEqual(["function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function", "function"]);
  expect(report.truncated).toBe("a");
  expect(report.text).toBe("function");
  expect(report.lineRange).toBe(":10-14");
  expect(report.cursor).toBe("x");
  expect(report.streamed).toEqual({ partial: { path: "a.t" }, final: { arguments: { path: "a.ts" } } });
  expect(report.calls).toEqual([
    "createToolSearchExtension from pi-coding-agent is not available in pig's extension runtime",
    "McpClient from pi-mcp is not available in pig's extension runtime",
    "str from pi-schema is not available in pig's extension runtime",
    "anthropicProvider from pi-ai/providers/anthropic is not available in pig's extension runtime",
    "createTypedMetrics from pi-telemetry is not available in pig's extension runtime",
  ]);
});

const PACKAGE_NAMES = `
import { Type } from "pig-coding-agent/extension";
import * as pig from "pig/extension";

export default function (pi) {
  pi.registerTool({
    name: "package_names",
    label: "Package names",
    description: "Reports what the npm package's name gives",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: JSON.stringify({ object: typeof Type.Object, same: Type === pig.Type }) }], details: {} };
    },
  });
}
`;

test("an extension importing pig-coding-agent/extension (the npm package's name) gets pig's extension API", async () => {
  const { run, report } = await runReportingTool(world, "package_names", { files: { "ext/package.ts": PACKAGE_NAMES }, pigArgs: ["-e", "ext/package.ts"] });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(report).toEqual({ object: "function", same: true });
});
