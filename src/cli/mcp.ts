/**
 * `pig mcp list` (and the way to `add`, `remove`, `login` and `logout`): connects every enabled server of `mcp.json` (the user's, and a trusted
 * project's) and prints its state, tools and errors, as upstream's `pi mcp list` does; exits 1
 * when an entry is invalid or an enabled server did not connect. Extensions are not loaded, so
 * servers they register are not listed.
 */
import { parseArgs } from "node:util";
import { ModelRegistry } from "../ai/registry.ts";
import { loadMcpConfig, type ConfiguredServer } from "../mcp/config.ts";
import { McpServerConnection } from "../mcp/connection.ts";
import { McpAuthorizers } from "../mcp/oauth/index.ts";
import { decideTrust } from "../resources/trust.ts";
import { agentDir } from "../session/paths.ts";
import { displayOnStdout, writeStderr, writeStdout } from "../util/stdio.ts";
import { VERSION } from "../version.ts";
import { tidyParseError, UsageError } from "./errors.ts";

export const MCP_HELP = `Usage: pig mcp list [--trust | --no-trust] [--json]
       pig mcp add <server> [options] (--url <url> | -- <command> [args...]), pig mcp remove <server> [-l]
                (add a server to mcp.json or remove it: pig mcp add --help)
       pig mcp login <server> [-l] [--timeout <seconds>], pig mcp logout <server> [-l]
                (sign in to an OAuth MCP server, or delete its sign-in: pig mcp login --help)

Connects every enabled MCP server of mcp.json (the agent directory's, and .pig/mcp.json in a
trusted project) and prints its state, its tools and its errors. Exits 1 when an entry is invalid
or an enabled server is not connected.

  --trust       trust the project for this command (its .pig/mcp.json counts)
  --no-trust    leave the project's .pig/mcp.json out
  --json        one JSON object instead of lines
`;

interface ServerReport {
  name: string;
  scope: ConfiguredServer["scope"];
  source: string;
  enabled: boolean;
  transport: string;
  state: string;
  tools: string[];
  error?: string;
  stderr?: string;
}

async function report(server: ConfiguredServer, cwd: string, credentials: ModelRegistry, authorizers: McpAuthorizers): Promise<ServerReport> {
  const { config } = server;
  const base = {
    name: server.name,
    scope: server.scope,
    source: server.override ?? server.source,
    enabled: config.enabled !== false,
    transport: config.transport === "http" ? config.url : [config.command, ...(config.args ?? [])].join(" "),
  };
  if (!base.enabled) return { ...base, state: "disabled", tools: [] };
  const connection = new McpServerConnection(server.name, config, { cwd, env: process.env, credentials: () => credentials.credentialVars(), authorizerFor: (name, url) => authorizers.for(name, url) }, { name: "pig", version: VERSION }, { tools: () => {}, state: () => {} });
  await connection.start();
  const result: ServerReport = {
    ...base,
    state: connection.state,
    tools: connection.tools.map((tool) => tool.name),
    ...(connection.state !== "connected" && connection.error ? { error: connection.error } : {}),
    ...(connection.stderr ? { stderr: connection.stderr } : {}),
  };
  await connection.close();
  return result;
}

function lines(reports: readonly ServerReport[], errors: readonly string[], dir: string): string[] {
  const out: string[] = [];
  if (reports.length === 0 && errors.length === 0) out.push(`No MCP servers configured. Add them to ${dir}/mcp.json or .pig/mcp.json.`);
  for (const r of reports) {
    const state = r.state === "connected" ? `connected, ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}` : r.state === "needs-sign-in" ? `needs sign-in (pig mcp login ${r.name})` : r.state;
    out.push(`${r.name}: ${state} (${r.scope}: ${r.source})`, `  ${r.transport}`);
    if (r.tools.length > 0) out.push(`  tools: ${r.tools.join(", ")}`);
    if (r.error) out.push(`  ${r.error.split("\n").join("\n  ")}`);
    if (r.stderr && r.state !== "connected") out.push(`  stderr: ${r.stderr.split("\n").join("\n          ")}`);
  }
  for (const error of errors) out.push(`config error: ${error}`);
  return out;
}

export async function runMcp(argv: string[]): Promise<number> {
  if (argv[0] === "add" || argv[0] === "remove") {
    const { runMcpAdd, runMcpRemove } = await import("./mcp-edit.ts");
    return argv[0] === "add" ? runMcpAdd(argv.slice(1)) : runMcpRemove(argv.slice(1));
  }
  if (argv[0] === "login" || argv[0] === "logout") {
    const { runMcpLogin, runMcpLogout } = await import("./mcp-login.ts");
    return argv[0] === "login" ? runMcpLogin(argv.slice(1)) : runMcpLogout(argv.slice(1));
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { trust: { type: "boolean" }, "no-trust": { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new UsageError(`mcp: ${tidyParseError(error)}`, "pig mcp --help");
  }
  if (parsed.values.help) {
    writeStdout(MCP_HELP);
    return 0;
  }
  const [command, ...rest] = parsed.positionals;
  if (command !== "list" || rest.length > 0) throw new UsageError(command === undefined ? "mcp: name a subcommand (list, add, remove, login or logout)" : `mcp: unknown subcommand ${command} (those there are: list, add, remove, login, logout)`, "pig mcp --help");
  if (parsed.values.trust && parsed.values["no-trust"]) throw new UsageError("mcp: --trust and --no-trust cannot be combined", "pig mcp --help");
  const cwd = process.cwd();
  const dir = agentDir();
  const flag = parsed.values.trust ? true : parsed.values["no-trust"] ? false : undefined;
  const trust = await decideTrust({ cwd, agentDir: dir, interactive: false, ...(flag !== undefined ? { flag } : {}) });
  for (const line of trust.diagnostics) writeStderr(`pig: warning: ${line}\n`);
  const loaded = loadMcpConfig(dir, cwd, trust.trusted);
  const credentials = new ModelRegistry({ agentDir: dir, env: process.env });
  // Signed-in servers connect with their stored sign-in (renewed when it expired).
  const authorizers = new McpAuthorizers({ agentDir: dir, env: process.env, oauthOf: (name) => loaded.servers.find((server) => server.name === name)?.config.oauth });
  const reports = await Promise.all(loaded.servers.map((server) => report(server, cwd, credentials, authorizers)));
  if (parsed.values.json) writeStdout(`${JSON.stringify({ servers: reports, errors: loaded.errors }, null, 2)}\n`);
  else displayOnStdout(`${lines(reports, loaded.errors, dir).join("\n")}\n`);
  if (!trust.trusted && trust.found.some((r) => r.kind === "mcp")) writeStderr("pig: the project's .pig/mcp.json is left out: the project is not trusted (--trust includes it)\n");
  return loaded.errors.length > 0 || reports.some((r) => r.enabled && r.state !== "connected") ? 1 : 0;
}
