/**
 * Adding and removing a server in an `mcp.json` (`pig mcp add/remove`), as upstream Pi 1.6.0's
 * `pi mcp add/remove` do, but editing the text in place: the file's other content, its key order,
 * indentation and the other servers' layout stay as they were. A missing file is created private (it may hold
 * credentials); a file that is not an object with an `mcpServers` object is an error, unchanged.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { applyEdits, findNodeAtLocation, format, modify, parseTree, type FormattingOptions } from "jsonc-parser";
import { isPlainObject } from "../util/plain-object.ts";

/** The text of a missing or empty file. */
const EMPTY = "{}\n";

interface McpFileText {
  text: string;
  servers: Record<string, unknown> | undefined;
}

function readFileText(path: string): McpFileText {
  const text = existsSync(path) ? readFileSync(path, "utf8").replace(/^\uFEFF/, "") : "";
  if (text.trim() === "") return { text: EMPTY, servers: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(parsed) || (parsed.mcpServers !== undefined && !isPlainObject(parsed.mcpServers))) throw new Error('expected an object with an "mcpServers" object');
  return { text, servers: parsed.mcpServers as Record<string, unknown> | undefined };
}

/** The file's own indentation (two spaces when it has none to go by). */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1, eol: "\n" } : { insertSpaces: true, tabSize: indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text.endsWith("\n") ? text : `${text}\n`, { mode: 0o600 });
}

/**
 * `text` with `mcpServers.<name>` set to `entry`. Only the new entry is formatted (in the file's
 * indentation), so the other servers keep their layout; into an empty or missing `mcpServers`
 * the whole object is formatted.
 */
export function withServer(text: string, name: string, entry: Record<string, unknown>, hadServers: boolean): string {
  const edits = modify(text, ["mcpServers", name], entry, {});
  const edited = applyEdits(text, edits);
  const formatting = formattingOf(text);
  const range = hadServers ? { offset: edits[0]!.offset, length: edits[0]!.content.length } : findNodeAtLocation(parseTree(edited)!, ["mcpServers"])!;
  return applyEdits(edited, format(edited, { offset: range.offset, length: range.length }, formatting));
}

/** Adds `name` to the file, or replaces its entry; true when it replaced one. */
export function addServerToFile(path: string, name: string, entry: Record<string, unknown>): boolean {
  const { text, servers } = readFileText(path);
  const replaced = servers?.[name] !== undefined;
  if (text === EMPTY) write(path, JSON.stringify({ mcpServers: { [name]: entry } }, null, 2));
  else write(path, withServer(text, name, entry, servers !== undefined && Object.keys(servers).length > 0));
  return replaced;
}

/** Removes `name` from the file; false (the file untouched) when it does not define it. */
export function removeServerFromFile(path: string, name: string): boolean {
  if (!existsSync(path)) return false;
  const { text, servers } = readFileText(path);
  if (servers?.[name] === undefined) return false;
  write(path, applyEdits(text, modify(text, ["mcpServers", name], undefined, {})));
  return true;
}

/** Whether the file defines `name` (false when it is missing). */
export function fileDefinesServer(path: string, name: string): boolean {
  return existsSync(path) && readFileText(path).servers?.[name] !== undefined;
}
