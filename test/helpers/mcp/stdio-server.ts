/**
 * A stdio MCP server made with the official SDK, started by pig in the tests:
 * `bun stdio-server.ts <label>`. With MCP_TEST_FAIL set it writes that to stderr and exits 3
 * before answering anything (a server that fails to start); with MCP_TEST_PID_FILE it writes its
 * process id there.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { addTestTools } from "./tools.ts";

import { writeFileSync } from "node:fs";

const label = process.argv[2] ?? "stdio";
// Where the test learns this server's process id (to see it stopped with pig).
if (process.env.MCP_TEST_PID_FILE) writeFileSync(process.env.MCP_TEST_PID_FILE, String(process.pid));
if (process.env.MCP_TEST_FAIL) {
  process.stderr.write(`${process.env.MCP_TEST_FAIL}\n`);
  process.exit(3);
}
const server = new McpServer({ name: `test-${label}`, version: "1.0.0" }, { instructions: `Test server ${label}.` });
addTestTools(server, label);
await server.connect(new StdioServerTransport());
