/** A tools/call result as the model gets it: upstream Pi 1.6.0's mapping of blocks and its 20 KB limit. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { MCP_OUTPUT_MAX_BYTES, toToolOutput, truncateMiddle } from "../../src/mcp/content.ts";
import { SpillFiles } from "../../src/tools/spill-files.ts";

const spill = new SpillFiles();

test("blocks map to text and images; audio, links and binary resources become words", () => {
  const output = toToolOutput("srv", "t", {
    content: [
      { type: "text", text: "hello" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "file:///b.md", text: "# b" } },
      { type: "resource", resource: { uri: "file:///c.json", mimeType: "application/json", blob: Buffer.from('{"c":1}').toString("base64") } },
      { type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/octet-stream", blob: Buffer.from([1, 2, 3]).toString("base64") } },
      { type: "hologram" },
    ],
  }, spill);
  const texts = output.content.map((c) => (c.type === "text" ? c.text : `<${c.mimeType}>`));
  expect(texts.slice(0, 6)).toEqual(["hello", "<image/png>", "[audio audio/wav omitted]", '[Resource file:///a.txt "a.txt" (text/plain)]', "# b", '{"c":1}']);
  const saved = /^\[Binary resource file:\/\/\/d\.bin \(application\/octet-stream, 3B\) saved to (.+)\]$/.exec(texts[6]!);
  expect([...readFileSync(saved![1]!)]).toEqual([1, 2, 3]);
  expect(texts[7]).toBe("[unsupported MCP content hologram]");
  expect(output.isError).toBe(false);
});

test("structured content alone is its JSON; an error without text says which tool failed", () => {
  expect(toToolOutput("srv", "t", { content: [], structuredContent: { sum: 5 } }, spill).content).toEqual([{ type: "text", text: '{\n  "sum": 5\n}' }]);
  const failed = toToolOutput("srv", "t", { content: [], isError: true }, spill);
  expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "MCP tool srv/t returned an error" }] });
});

test("text over 20 KB keeps its start and end, says what was cut, and the whole is in a file", () => {
  const text = `${"a".repeat(15_000)}\n${"b".repeat(15_000)}`;
  const output = toToolOutput("srv", "t", { content: [{ type: "text", text }] }, spill);
  const shown = (output.content[0] as { text: string }).text;
  expect(shown.startsWith("Warning: truncated output (original token count: 7501)\nTotal output lines: 2\n\naaaa")).toBe(true);
  expect(shown).toContain(`…${30_001 - MCP_OUTPUT_MAX_BYTES} chars truncated…`);
  expect(readFileSync(output.details.fullOutputPath!, "utf8")).toBe(text);
  expect(shown).toContain(`[Full output: ${output.details.fullOutputPath} (read it with offset/limit)]`);
});

test("the middle cut falls between characters", () => {
  const cut = truncateMiddle("é".repeat(20), 9)!;
  expect(cut.text).toBe(`éé…16 chars truncated…éé`);
  expect(truncateMiddle("short", 100)).toBeUndefined();
});
