/**
 * The one output bound, through the agent loop: a tool that does not bound its own output (an
 * extension's, a program's) is cut to the session's limits with the cut noted; the built-ins,
 * which keep within Pi's limits themselves, and results a tool has cut already (its details say
 * `truncation`) reach the model as their tool made them.
 */
import { describe, expect, test } from "bun:test";
import type { AnyTool, ToolResult } from "../../src/tools/types.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { makeSession } from "../helpers/scripted-session.ts";

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

function toolReturning(name: string, result: ToolResult): AnyTool {
  return { name, label: name, description: "", parameters: { type: "object", properties: {} }, execute: async () => result };
}

async function seenResult(tool: AnyTool, args: Record<string, unknown> = {}, toolOutput?: { maxLines: number; maxBytes: number }) {
  const { session, seen } = makeSession([{ calls: [{ id: "c1", name: tool.name, arguments: args }] }, { text: "done" }], [tool], {
    ...(toolOutput ? { more: { toolOutput } } : {}),
  });
  await session.prompt("go");
  const message = seen[1]!.messages[2] as { content: { type: string; text?: string }[]; details?: unknown };
  return { text: message.content.map((block) => block.text ?? `[${block.type}]`).join("\n"), message };
}

describe("the output bound", () => {
  test("a tool's long output reaches the model as its first 2000 lines, with the cut noted (Pi's limits by default)", async () => {
    const { text } = await seenResult(toolReturning("mine", { content: [{ type: "text", text: numbered(3000) }] }));
    const [kept, notice] = text.split("\n\n");
    expect(kept).toBe(numbered(2000));
    expect(notice).toMatch(/^\[Showing lines 1-2000 of 3000\. Full output: \/.+\.log\]$/);
  });

  test("the session's limits apply, images are kept and the text blocks become one", async () => {
    const result: ToolResult = {
      content: [
        { type: "text", text: numbered(5) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: numbered(5) },
      ],
    };
    const { message } = await seenResult(toolReturning("mine", result), {}, { maxLines: 6, maxBytes: 50 * 1024 });
    expect(message.content.map((block) => block.type)).toEqual(["text", "image"]);
    expect(message.content[0]!.text).toMatch(new RegExp(`^${numbered(5)}\\nline 1\\n\\n\\[Showing lines 1-6 of 10\\. Full output: `));
  });

  test("a single line over the byte limit keeps its first bytes", async () => {
    const { text } = await seenResult(toolReturning("mine", { content: [{ type: "text", text: "é".repeat(1000) }] }), {}, { maxLines: 10, maxBytes: 101 });
    expect(text.split("\n\n")[0]).toBe("é".repeat(50));
    expect(text).toContain("[Showing first 100B of line 1 (line is 2.0KB). Full output: ");
  });

  test("a result its tool has cut already, and output within the limits, are left as they are", async () => {
    const cut: ToolResult = { content: [{ type: "text", text: numbered(3000) }], details: { truncation: { truncated: true } } };
    expect((await seenResult(toolReturning("mine", cut))).text).toBe(numbered(3000));
    expect((await seenResult(toolReturning("mine", { content: [{ type: "text", text: numbered(10) }] }))).text).toBe(numbered(10));
  });

  test("a built-in keeps to its own limits whatever the session's bound", async () => {
    const { text } = await seenResult(createBuiltinTools().bash, { command: "seq 1 50" }, { maxLines: 10, maxBytes: 50 * 1024 });
    expect(text).toBe(`${Array.from({ length: 50 }, (_, i) => String(i + 1)).join("\n")}\n`);
  });
});
