/**
 * `mcp.json`: the `mcpServers` shape other MCP clients share (Claude Code, Cursor, Codex's JSON
 * form), read as upstream Pi 1.6.0 reads it — the user's file in the agent directory, then a
 * trusted project's `.pig/mcp.json`, whose entry replaces the user's of the same name. A project
 * entry without `command`, `url` or `type` only overrides `enabled`, `exposure` and
 * `toolExposure` of the user's server and keeps the rest (credentials a project could not set).
 * A bad file or entry is an error naming the file, the server and the field; the other servers
 * are still read.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as v from "valibot";
import { readConfigText } from "../util/config-read.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { mcpNamespace } from "./naming.ts";
import { checkOAuthSettings } from "./oauth/settings.ts";
import { mcpConfigPaths } from "./paths.ts";

export const MCP_EXPOSURES = ["codemode", "deferred", "direct", "hidden"] as const;
export type McpExposure = (typeof MCP_EXPOSURES)[number];
const EXPOSURE_WORDS = `must be one of ${MCP_EXPOSURES.map((e) => `"${e}"`).join(", ")}`;
/** Older names, replaced by the current one when read. */
const EXPOSURE_ALIASES: Readonly<Record<string, McpExposure>> = { "codemode-deferred": "codemode" };

const ExposureSchema = v.pipe(
  v.string(EXPOSURE_WORDS),
  v.transform((value) => EXPOSURE_ALIASES[value] ?? value),
  v.picklist(MCP_EXPOSURES, EXPOSURE_WORDS),
);
const StringMap = (what: string) => v.record(v.string(), v.string(`must map names to strings`), `must map ${what} to strings`);

/** One entry of `mcpServers`; fields pig does not know are kept (another client's, or a newer Pi's). */
export const McpServerEntrySchema = v.looseObject({
  type: v.optional(v.picklist(["stdio", "http", "streamable-http", "sse"], 'must be "stdio", "http" or "streamable-http"')),
  command: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
  args: v.optional(v.array(v.string("must be a string"), "must be a list of strings")),
  env: v.optional(StringMap("names")),
  cwd: v.optional(v.string("must be a string")),
  url: v.optional(v.string("must be a string")),
  headers: v.optional(StringMap("header names")),
  /** Checked by the sign-in (src/mcp/oauth/). */
  oauth: v.optional(v.record(v.string(), v.unknown(), "must be an object")),
  auth: v.optional(v.looseObject({ provider: v.pipe(v.string("must be a provider name"), v.nonEmpty("must be a provider name")) }, "must be an object")),
  enabled: v.optional(v.boolean("must be true or false")),
  description: v.optional(v.string("must be a string")),
  timeout: v.optional(v.pipe(v.number("must be a number of seconds"), v.gtValue(0, "must be a positive number of seconds"))),
  exposure: v.optional(ExposureSchema),
  toolExposure: v.optional(v.record(v.string(), ExposureSchema, "must map tool names to exposures")),
});
export type McpServerEntry = v.InferOutput<typeof McpServerEntrySchema>;

/** A server entry after its transport is known. */
export type McpServerConfig = McpServerEntry & ({ transport: "stdio"; command: string } | { transport: "http"; url: string });

export type McpServerScope = "user" | "project" | "extension";

export interface ConfiguredServer {
  name: string;
  config: McpServerConfig;
  scope: McpServerScope;
  /** The file that defines it (or the extension that registered it). */
  source: string;
  /** The project file whose override applies to it. */
  override?: string;
}

export interface LoadedMcpConfig {
  servers: ConfiguredServer[];
  errors: string[];
  /** The files read (for the start-up decision: none means MCP is not loaded at all). */
  files: string[];
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"];

const FileSchema = v.looseObject({
  mcpServers: v.optional(v.record(v.string(), v.unknown(), '"mcpServers" must be an object')),
  autoEnableCodemode: v.optional(v.boolean("autoEnableCodemode must be true or false")),
});

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
  return path ? `${path} ${issue.message}` : issue.message;
}

/**
 * Checks one entry: the name, the fields, and that it names a transport pig speaks. Returns the
 * config or the error (without the file: the caller names it).
 */
export function validateServerEntry(name: string, raw: unknown): McpServerConfig | string {
  if (!SERVER_NAME.test(name)) return `invalid server name "${name}" (use letters, digits, "_" and "-")`;
  if (!isPlainObject(raw)) return `server "${name}": must be an object`;
  const parsed = v.safeParse(McpServerEntrySchema, raw);
  if (!parsed.success) return `server "${name}": ${issueText(parsed.issues)}`;
  const entry = parsed.output;
  if (entry.type === "sse") return `server "${name}": the legacy SSE transport is not supported; use the server's streamable-HTTP URL (often /mcp instead of /sse)`;
  if (entry.url !== undefined && (entry.type === undefined || entry.type !== "stdio")) {
    if (!URL.canParse(entry.url) || !/^https?:$/.test(new URL(entry.url).protocol)) return `server "${name}": url must be an http or https URL`;
    const oauthProblem = checkOAuthSettings(entry.oauth);
    if (oauthProblem) return `server "${name}": ${oauthProblem}`;
    return { ...entry, transport: "http", url: entry.url };
  }
  if (entry.command !== undefined && (entry.type === undefined || entry.type === "stdio")) return { ...entry, transport: "stdio", command: entry.command };
  return `server "${name}": needs either "command" (stdio) or "url" (streamable HTTP)`;
}

function isOverride(raw: unknown): raw is Record<string, unknown> {
  return isPlainObject(raw) && raw.command === undefined && raw.url === undefined && raw.type === undefined;
}

function readFile(path: string, scope: "user" | "project", servers: Map<string, ConfiguredServer>, errors: string[]): boolean {
  const read = readConfigText(path);
  if (read.kind === "absent") return false;
  if (read.kind === "unreadable") {
    errors.push(`${path}: ${read.reason}`);
    return true;
  }
  let json: unknown;
  try {
    json = JSON.parse(read.text.replace(/^\uFEFF/, ""));
  } catch (error) {
    errors.push(`${path}: not valid JSON (${(error as Error).message})`);
    return true;
  }
  const file = v.safeParse(FileSchema, json);
  if (!file.success || !isPlainObject(json) || (json.mcpServers !== undefined && !isPlainObject(json.mcpServers))) {
    errors.push(`${path}: ${isPlainObject(json) ? '"mcpServers" must be an object' : 'expected an object with an "mcpServers" object'}`);
    return true;
  }
  for (const [name, raw] of Object.entries(file.output.mcpServers ?? {})) {
    if (scope === "project" && isOverride(raw)) {
      const base = servers.get(name);
      const extra = Object.keys(raw).filter((key) => !OVERRIDE_KEYS.includes(key));
      if (!base) errors.push(`${path}: server "${name}" needs "command" or "url", or a server of the user's mcp.json to override`);
      else if (extra.length > 0) errors.push(`${path}: server "${name}": an override can only set ${OVERRIDE_KEYS.join(", ")} (not ${extra.join(", ")})`);
      else {
        const config = validateServerEntry(name, { ...base.config, ...raw });
        if (typeof config === "string") errors.push(`${path}: ${config}`);
        else servers.set(name, { ...base, config, override: path });
      }
      continue;
    }
    const config = validateServerEntry(name, raw);
    if (typeof config === "string") {
      errors.push(`${path}: ${config}`);
      continue;
    }
    // Names that differ only in - and _ would share a namespace.
    const clash = [...servers.keys()].find((other) => other !== name && mcpNamespace(other) === mcpNamespace(name));
    if (clash) {
      errors.push(`${path}: server "${name}" conflicts with "${clash}" (names that differ only in "-" and "_" are the same server)`);
      continue;
    }
    if (scope === "project" && config.auth) {
      errors.push(`${path}: server "${name}": auth is only allowed in the user's mcp.json`);
      continue;
    }
    servers.set(name, { name, config, scope, source: path });
  }
  return true;
}

/** The servers of the user's file and (trusted) the project's, disabled ones included. */
export function loadMcpConfig(agentDir: string, cwd: string, trusted: boolean): LoadedMcpConfig {
  const paths = mcpConfigPaths(agentDir, cwd, trusted);
  const servers = new Map<string, ConfiguredServer>();
  const errors: string[] = [];
  const files: string[] = [];
  if (readFile(paths.user, "user", servers, errors)) files.push(paths.user);
  if (paths.project && readFile(paths.project, "project", servers, errors)) files.push(paths.project);
  return { servers: [...servers.values()], errors, files };
}

/**
 * Saves `enabled` for one server in the file that defines (or overrides) it, keeping the rest of
 * the file and its indentation. A full entry drops `enabled` when it is true (the default); an
 * override keeps it, since it replaces the user's value.
 */
export function saveServerEnabled(path: string, name: string, enabled: boolean): void {
  const text = existsSync(path) ? readFileSync(path, "utf8").replace(/^\uFEFF/, "") : undefined;
  const parsed: unknown = text === undefined ? {} : JSON.parse(text);
  const servers = (parsed as { mcpServers?: Record<string, Record<string, unknown>> }).mcpServers;
  const entry = servers?.[name];
  if (typeof entry !== "object" || entry === null) throw new Error(`${path} does not define MCP server "${name}"`);
  const override: boolean = isOverride(entry);
  if (enabled && !override) delete entry.enabled;
  else entry.enabled = enabled;
  const indent = (text && /^([ \t]+)\S/m.exec(text)?.[1]) || "  ";
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(parsed, null, indent)}\n`);
}
