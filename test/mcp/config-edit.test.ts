/**
 * Editing an mcp.json in place (config-edit.ts): the new entry in the file's indentation, the
 * other servers' layout and the file's other keys untouched, removal leaving the rest as it was.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addServerToFile, fileDefinesServer, removeServerFromFile, withServer } from "../../src/mcp/config-edit.ts";

test("an entry is added in the file's indentation; the other servers keep their layout", () => {
  const before = '{\n\t"mcpServers": {\n\t\t"kept": { "command": "true" }\n\t},\n\t"other": 1\n}\n';
  expect(withServer(before, "new", { command: "x" }, true)).toBe('{\n\t"mcpServers": {\n\t\t"kept": { "command": "true" },\n\t\t"new": {\n\t\t\t"command": "x"\n\t\t}\n\t},\n\t"other": 1\n}\n');
  expect(withServer('{\n  "mcpServers": {}\n}\n', "a", { url: "https://x" }, false)).toBe('{\n  "mcpServers": {\n    "a": {\n      "url": "https://x"\n    }\n  }\n}\n');
});

test("a missing file is created; removing restores the text; a file of another shape is refused untouched", () => {
  const dir = mkdtempSync(join(tmpdir(), "pig-mcp-edit-"));
  const path = join(dir, "sub", "mcp.json");
  expect(addServerToFile(path, "a", { command: "x" })).toBe(false);
  expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify({ mcpServers: { a: { command: "x" } } }, null, 2)}\n`);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(addServerToFile(path, "a", { command: "y" })).toBe(true);
  expect(fileDefinesServer(path, "a")).toBe(true);
  const kept = '{\n  "mcpServers": {\n    "k": { "command": "k" }\n  }\n}\n';
  writeFileSync(path, kept);
  addServerToFile(path, "b", { command: "b" });
  expect(removeServerFromFile(path, "b")).toBe(true);
  expect(readFileSync(path, "utf8")).toBe(kept);
  expect(removeServerFromFile(path, "b")).toBe(false);
  expect(removeServerFromFile(join(dir, "none.json"), "b")).toBe(false);
  writeFileSync(path, '{"mcpServers": []}');
  expect(() => addServerToFile(path, "a", { command: "x" })).toThrow('expected an object with an "mcpServers" object');
  expect(readFileSync(path, "utf8")).toBe('{"mcpServers": []}');
});
