/**
 * `pig mcp add` and `pig mcp remove`: a server added to (or replaced in) `mcp.json`, or removed
 * from it, from a shell, with the flags of upstream Pi 1.6.0's `pi mcp add/remove`. The user's
 * file in the agent directory, or with `-l`/`--local` the project's `.pig/mcp.json`. `add` does
 * not connect (`pig mcp list` checks the server); the entry is checked as `mcp.json` is read, and
 * a mistake names the flag at fault. `remove` keeps a server's stored sign-in.
 */
import { join } from "node:path";
import { MCP_EXPOSURES, validateServerEntry } from "../mcp/config.ts";
import { addServerToFile, fileDefinesServer, removeServerFromFile } from "../mcp/config-edit.ts";
import { CLIENT_REGISTRATIONS } from "../mcp/oauth/settings.ts";
import { mcpConfigPaths } from "../mcp/paths.ts";
import { projectKey, readTrust } from "../resources/trust.ts";
import { agentDir } from "../session/paths.ts";
import { writeStdout } from "../util/stdio.ts";
import { CliError, UsageError } from "./errors.ts";

export const MCP_EDIT_HELP = `Usage: pig mcp add <server> [options] -- <command> [args...]
       pig mcp add <server> [options] --url <url>
       pig mcp remove <server> [-l]

Adds a server to mcp.json (or replaces the one of that name), or removes it. The agent
directory's mcp.json, or with -l the project's .pig/mcp.json. The rest of the file is kept as it
is. add does not connect: pig mcp list checks the server. remove keeps a stored sign-in
(pig mcp logout deletes it).

  -l, --local                      the project's .pig/mcp.json instead of the user's
  --exposure <mode>                ${MCP_EXPOSURES.join(", ")} (default codemode, declared as direct)
  --description <text>             what the server offers (the system prompt names it for deferred tools)

stdio servers (the command and its arguments after --):
  --env <KEY=VALUE>                an environment variable of the server (repeatable)
  --cwd <dir>                      its working directory

HTTP servers (--url <url>, streamable HTTP):
  --header <KEY=VALUE>             a request header (repeatable)
  --bearer-token-env-var <NAME>    sends Authorization: Bearer \${NAME}
  --oauth-client-id <id>           a pre-registered OAuth client
  --oauth-client-secret <secret>   its secret (\${VAR} or !command keep it out of the file)
  --oauth-callback-port <port>     the sign-in's redirect port
  --oauth-client-name <name>       the name a dynamically registered client gets
  --oauth-client-registration <mode>  auto or dcr (cimd needs a Client ID Metadata Document pig has not)
`;

const HINT = "pig mcp --help";
type OptionKind = "flag" | "value" | "list";

const ADD_OPTIONS: Readonly<Record<string, OptionKind>> = {
  local: "flag",
  url: "value",
  env: "list",
  cwd: "value",
  header: "list",
  "bearer-token-env-var": "value",
  "oauth-client-id": "value",
  "oauth-client-secret": "value",
  "oauth-callback-port": "value",
  "oauth-client-name": "value",
  "oauth-client-registration": "value",
  exposure: "value",
  description: "value",
};
const HTTP_ONLY = ["header", "bearer-token-env-var", "oauth-client-id", "oauth-client-secret", "oauth-callback-port", "oauth-client-name", "oauth-client-registration"];
const STDIO_ONLY = ["env", "cwd"];

export interface ParsedOptions {
  positional: string[];
  values: Map<string, string | true>;
  lists: Map<string, string[]>;
}

/**
 * `--name value` options. `--` ends them, as does the `maxPositionals`-th positional argument:
 * what follows is the server's command line, its own options included.
 */
export function parseEditOptions(command: string, args: readonly string[], known: Readonly<Record<string, OptionKind>>, maxPositionals = Number.POSITIVE_INFINITY): ParsedOptions {
  const positional: string[] = [];
  const values = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let index = 0; index < args.length; index++) {
    const typed = args[index]!;
    const arg = typed === "-l" ? "--local" : typed;
    if (arg === "--" || positional.length >= maxPositionals) {
      positional.push(...args.slice(arg === "--" ? index + 1 : index));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const name = flag.startsWith("--") ? flag.slice(2) : "";
    const kind = known[name];
    if (!kind) throw new UsageError(`mcp ${command}: unknown option ${typed}`, HINT);
    if (kind === "flag") {
      if (inline !== undefined) throw new UsageError(`mcp ${command}: ${flag} takes no value`, HINT);
      values.set(name, true);
      continue;
    }
    const value = inline ?? args[++index];
    if (value === undefined) throw new UsageError(`mcp ${command}: ${flag} needs a value`, HINT);
    if (kind === "list") lists.set(name, [...(lists.get(name) ?? []), value]);
    else values.set(name, value);
  }
  return { positional, values, lists };
}

/** `KEY=VALUE` pairs of a repeatable option. */
function pairs(option: string, items: readonly string[] | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const item of items ?? []) {
    const at = item.indexOf("=");
    if (at <= 0) throw new UsageError(`mcp add: --${option} expects KEY=VALUE, got "${item}"`, HINT);
    record[item.slice(0, at)] = item.slice(at + 1);
  }
  return record;
}

/** The entry `pig mcp add` writes, checked; a mistake names its flag. */
export function entryFromOptions(parsed: ParsedOptions): { name: string; entry: Record<string, unknown> } {
  const { positional, values, lists } = parsed;
  const [name, ...command] = positional;
  const value = (option: string) => {
    const found = values.get(option);
    return typeof found === "string" ? found : undefined;
  };
  const url = value("url");
  if (!name) throw new UsageError("mcp add: name the server: pig mcp add <server> (--url <url> | -- <command> [args...])", HINT);
  if (url === undefined && command.length === 0) throw new UsageError(`mcp add: give the server's command after -- (stdio) or --url <url> (HTTP)`, HINT);
  if (url !== undefined && command.length > 0) throw new UsageError(`mcp add: --url and a command (${command.join(" ")}) cannot be combined`, HINT);
  const misplaced = (url === undefined ? HTTP_ONLY : STDIO_ONLY).find((option) => values.has(option) || lists.has(option));
  if (misplaced) throw new UsageError(`mcp add: --${misplaced} only applies to ${url === undefined ? "HTTP servers (--url)" : "stdio servers (-- <command>)"}`, HINT);
  const exposure = value("exposure");
  if (exposure !== undefined && !(MCP_EXPOSURES as readonly string[]).includes(exposure)) throw new UsageError(`mcp add: --exposure must be one of ${MCP_EXPOSURES.join(", ")}, not "${exposure}"`, HINT);

  let entry: Record<string, unknown>;
  if (url !== undefined) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`mcp add: --url must be an http or https URL, not "${url}"`, HINT);
    const headers = pairs("header", lists.get("header"));
    const bearer = value("bearer-token-env-var");
    if (bearer !== undefined) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(bearer)) throw new UsageError(`mcp add: --bearer-token-env-var must name an environment variable, not "${bearer}"`, HINT);
      headers.Authorization = `Bearer \${${bearer}}`;
    }
    const port = value("oauth-callback-port");
    if (port !== undefined && !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) throw new UsageError(`mcp add: --oauth-callback-port must be a port number (1-65535), not "${port}"`, HINT);
    const registration = value("oauth-client-registration");
    if (registration !== undefined && !(CLIENT_REGISTRATIONS as readonly string[]).includes(registration)) {
      throw new UsageError(`mcp add: --oauth-client-registration must be one of ${CLIENT_REGISTRATIONS.join(", ")}, not "${registration}"`, HINT);
    }
    if (registration === "cimd") throw new UsageError('mcp add: --oauth-client-registration cimd is not supported: pig has no Client ID Metadata Document; use "auto" or "dcr", or --oauth-client-id', HINT);
    const oauth: Record<string, unknown> = {
      ...(value("oauth-client-id") === undefined ? {} : { clientId: value("oauth-client-id") }),
      ...(value("oauth-client-secret") === undefined ? {} : { clientSecret: value("oauth-client-secret") }),
      ...(port === undefined ? {} : { callbackPort: Number(port) }),
      ...(value("oauth-client-name") === undefined ? {} : { clientName: value("oauth-client-name") }),
      ...(registration === undefined ? {} : { clientRegistration: registration }),
    };
    entry = { url, ...(Object.keys(headers).length > 0 ? { headers } : {}), ...(Object.keys(oauth).length > 0 ? { oauth } : {}) };
  } else {
    const env = pairs("env", lists.get("env"));
    const [executable, ...args] = command;
    entry = { command: executable, ...(args.length > 0 ? { args } : {}), ...(Object.keys(env).length > 0 ? { env } : {}), ...(value("cwd") === undefined ? {} : { cwd: value("cwd") }) };
  }
  if (exposure !== undefined) entry.exposure = exposure;
  const description = value("description");
  if (description !== undefined) entry.description = description;
  const checked = validateServerEntry(name, entry);
  if (typeof checked === "string") throw new UsageError(`mcp add: ${checked}`, HINT);
  return { name, entry };
}

function files(local: boolean): { path: string; scope: "user" | "project" } {
  const dir = agentDir();
  const paths = mcpConfigPaths(dir, process.cwd(), true);
  return local ? { path: paths.project!, scope: "project" } : { path: join(dir, "mcp.json"), scope: "user" };
}

function edit<T>(path: string, change: () => T): T {
  try {
    return change();
  } catch (error) {
    throw new CliError(`could not update ${path}: ${(error as Error).message}`);
  }
}

/** `--help` among the options (not in the server's command line after `--`). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

export function runMcpAdd(args: readonly string[]): number {
  if (asksForHelp(args)) {
    writeStdout(MCP_EDIT_HELP);
    return 0;
  }
  const parsed = parseEditOptions("add", args, ADD_OPTIONS, 2);
  const { name, entry } = entryFromOptions(parsed);
  const { path, scope } = files(parsed.values.has("local"));
  const replaced = edit(path, () => addServerToFile(path, name, entry));
  const out = [`${replaced ? "Replaced" : "Added"} ${scope} MCP server "${name}" in ${path}.`];
  if (scope === "project" && readTrust(agentDir()).projects[projectKey(process.cwd())]?.trusted !== true) {
    out.push(`The project is not trusted, so ${path} is left out until you trust it (start pig in the project, or pass --trust).`);
  }
  // An HTTP server without an Authorization header may want a sign-in.
  const mayNeedSignIn = typeof entry.url === "string" && !Object.keys((entry.headers as Record<string, string> | undefined) ?? {}).some((h) => h.toLowerCase() === "authorization");
  out.push(`Check it with: pig mcp list${mayNeedSignIn ? `. If it needs a sign-in: pig mcp login ${name}` : ""}`);
  writeStdout(`${out.join("\n")}\n`);
  return 0;
}

export function runMcpRemove(args: readonly string[]): number {
  if (asksForHelp(args)) {
    writeStdout(MCP_EDIT_HELP);
    return 0;
  }
  const parsed = parseEditOptions("remove", args, { local: "flag" });
  const [name, ...extra] = parsed.positional;
  if (!name || extra.length > 0) throw new UsageError(name ? `mcp remove: one server at a time (got ${parsed.positional.join(", ")})` : "mcp remove: name the server: pig mcp remove <server> [-l]", HINT);
  const local = parsed.values.has("local");
  const { path, scope } = files(local);
  if (edit(path, () => removeServerFromFile(path, name))) {
    writeStdout(`Removed ${scope} MCP server "${name}" from ${path}.\n`);
    return 0;
  }
  const other = files(!local);
  let elsewhere = false;
  try {
    elsewhere = fileDefinesServer(other.path, name);
  } catch {
    // The other file's problems are for the command that reads it.
  }
  throw new CliError(`no ${scope} MCP server named "${name}" in ${path}${elsewhere ? `; it is defined in ${other.path} (${local ? "omit -l" : "use -l"})` : ""}`);
}
