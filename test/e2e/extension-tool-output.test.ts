/**
 * An extension's tool output reaches the model within the one output bound, as the built-ins'
 * does: a tool of a TypeScript extension run by the built binary returns a megabyte, and the
 * model gets the first lines that fit, with a notice of the cut and of the file holding the
 * whole output. The `toolOutput` setting moves the bound.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { extensionWorlds, onlySessionEntries } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

const LINES = 20_000;
// 20,000 lines of 52 bytes and their line breaks: 1,060,000 bytes.
const EXTENSION = `
export default function (pi) {
  pi.registerTool({
    name: "flood",
    label: "Flood",
    description: "Returns a megabyte of numbered lines",
    parameters: { type: "object", properties: {} },
    async execute() {
      const lines = [];
      for (let i = 1; i <= ${LINES}; i++) lines.push("line " + String(i).padStart(5, "0") + " " + "x".repeat(41));
      return { content: [{ type: "text", text: lines.join("\\n") }], details: { lines: ${LINES} } };
    },
  });
}
`;

/** The text of the tool result the model was sent in its second request. */
async function floodSeenByModel(settings: Record<string, unknown> = {}): Promise<{ text: string; stored: Json }> {
  const w = await world([{ toolCalls: [{ name: "flood", arguments: {} }] }, { text: "done" }], { files: { "ext/flood.ts": EXTENSION }, settings });
  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "flood.ts"), "flood me"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  const tool = (w.llm.requests[1]!.body as { messages: Json[] }).messages.find((m) => m.role === "tool")!;
  const text = typeof tool.content === "string" ? tool.content : tool.content.map((p: Json) => p.text ?? "").join("");
  const stored = onlySessionEntries(join(w.agentDir, "sessions")).find((e) => e.type === "message" && e.message.role === "toolResult")!.message;
  return { text, stored };
}

test("a megabyte from an extension's tool reaches the model as its first 50 KB, with the cut and the full output's file noted", async () => {
  const { text, stored } = await floodSeenByModel();
  const [kept, notice] = text.split("\n\n");
  expect(Buffer.byteLength(kept!)).toBeLessThanOrEqual(50 * 1024);
  const keptLines = kept!.split("\n");
  expect(keptLines[0]).toBe(`line 00001 ${"x".repeat(41)}`);
  expect(keptLines).toHaveLength(Math.floor((50 * 1024 + 1) / 53));
  expect(notice).toMatch(new RegExp(`^\\[Showing lines 1-${keptLines.length} of ${LINES} \\(50\\.0KB limit\\)\\. Full output: /.+/tool-[0-9a-f]{16}\\.log\\]$`));
  // The session keeps what the model was given, and the tool's own details.
  expect(stored.content).toEqual([{ type: "text", text }]);
  expect(stored.details).toEqual({ lines: LINES });
});

test("the toolOutput setting sets the bound on an extension tool's output", async () => {
  const { text } = await floodSeenByModel({ toolOutput: { maxLines: 100 } });
  const [kept, notice] = text.split("\n\n");
  expect(kept!.split("\n")).toHaveLength(100);
  expect(kept!.split("\n").at(-1)).toBe(`line 00100 ${"x".repeat(41)}`);
  expect(notice).toMatch(new RegExp(`^\\[Showing lines 1-100 of ${LINES}\\. Full output: /.+\\.log\\]$`));

  const bytes = await floodSeenByModel({ toolOutput: { maxBytes: 1000 } });
  expect(bytes.text.split("\n\n")[0]!.split("\n")).toHaveLength(18);
  expect(bytes.text).toContain(`[Showing lines 1-18 of ${LINES} (1000B limit). Full output: `);
});
