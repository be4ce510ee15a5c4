/**
 * Arguments from a model held to a tool's strict schema, through the agent loop with the real
 * built-in tools: every optional property is sent, `null` where the model means "not given", and
 * the tool runs as if it had been left out (as upstream's validation does). A required property
 * sent as null is still an error the model is told about.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { strictSchema } from "../../src/ai/strict-schema.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { makeSession } from "../helpers/scripted-session.ts";
import { tempDir } from "../helpers/tmp.ts";

const tools = createBuiltinTools();

describe("null for an optional property, as a strict schema lets a model send it", () => {
  test("the built-in tools ask for strict sampling, and the model gets their declarations with it", async () => {
    const { session, seen } = makeSession([{ text: "ok" }], [tools.read, tools.bash, tools.edit, tools.write]);
    await session.prompt("hi");
    const declared = seen[0]!.tools!;
    expect(declared.map((tool) => [tool.name, tool.constrainedSampling?.type])).toEqual([
      ["read", "json_schema"],
      ["bash", "json_schema"],
      ["edit", "json_schema"],
      ["write", "json_schema"],
    ]);
    // read's strict form: offset and limit are required, and may be null.
    const strict = strictSchema(declared[0]!.parameters) as { required: string[]; properties: Record<string, unknown> };
    expect(strict.required).toEqual(["path", "offset", "limit"]);
    expect(strict.properties.offset).toEqual({ anyOf: [expect.objectContaining({ type: "number" }), { type: "null" }] });
  });

  test("read with offset and limit null reads the whole file", async () => {
    const file = join(tempDir(), "notes.txt");
    writeFileSync(file, "first line\nsecond line\n");
    const { session, seen } = makeSession(
      [{ calls: [{ id: "c1", name: "read", arguments: { path: file, offset: null, limit: null } }] }, { text: "done" }],
      [tools.read],
    );
    await session.prompt("read it");
    const result = seen[1]!.messages[2]!;
    expect(result).toMatchObject({ role: "toolResult", toolCallId: "c1", isError: false });
    const text = (result as { content: { type: string; text?: string }[] }).content.map((block) => block.text ?? "").join("");
    expect(text).toContain("first line\nsecond line");
  });

  test("bash with timeout null runs the command without a timeout", async () => {
    const { session, seen } = makeSession(
      [{ calls: [{ id: "c1", name: "bash", arguments: { command: "echo strict-null-ok", timeout: null } }] }, { text: "done" }],
      [tools.bash],
    );
    await session.prompt("run it");
    const result = seen[1]!.messages[2]!;
    expect(result).toMatchObject({ role: "toolResult", isError: false });
    expect(JSON.stringify(result)).toContain("strict-null-ok");
  });

  test("a required property sent as null is a validation error naming it", async () => {
    const { session, seen } = makeSession(
      [{ calls: [{ id: "c1", name: "read", arguments: { path: null, offset: null, limit: null } }] }, { text: "done" }],
      [tools.read],
    );
    await session.prompt("read it");
    const result = seen[1]!.messages[2]!;
    expect(result).toMatchObject({ role: "toolResult", isError: true });
    const text = (result as { content: { text: string }[] }).content[0]!.text;
    expect(text).toStartWith('Validation failed for tool "read":\n  - path: must be a string (got null)');
  });
});
