import { describe, expect, test } from "bun:test";
import { addFileOpsFromDetails, addFileOpsFromMessage, computeFileLists, createFileOps, formatFileLists } from "../../src/compaction/index.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { assistantMsg, toolCall, userMsg } from "./helpers.ts";

describe("file tracking", () => {
  test("records read, write and edit calls with a string path and ignores other tools and shapes", () => {
    const ops = createFileOps();
    addFileOpsFromMessage(
      assistantMsg([
        toolCall("read", { path: "a.ts" }),
        toolCall("write", { path: "b.ts", content: "x" }),
        toolCall("edit", { path: "c.ts" }),
        toolCall("bash", { command: "cat d.ts", path: "d.ts" }),
        toolCall("read", { path: 42 }),
        toolCall("read", { file: "e.ts" }),
        { type: "tool_use", id: "t", name: "read", input: { path: "f.ts" } },
      ]),
      ops,
    );
    addFileOpsFromMessage(userMsg("read g.ts"), ops);
    expect([...ops.read]).toEqual(["a.ts", "f.ts"]);
    expect([...ops.written]).toEqual(["b.ts"]);
    expect([...ops.edited]).toEqual(["c.ts"]);
  });

  test("counts the read, write and edit calls a tool made (nestedCalls on its result), the arguments it kept", () => {
    const ops = createFileOps();
    const result = {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "script",
      content: [],
      isError: false,
      timestamp: 0,
      nestedCalls: {
        calls: [
          { id: "c1/1", name: "read", arguments: { path: "n.ts" }, status: "ok" },
          { id: "c1/2", name: "edit", arguments: { path: "m.ts" }, status: "error" },
          { id: "c1/3", name: "write", argumentsBytes: 99999, status: "ok" },
        ],
        complete: false,
      },
    } as AgentMessage;
    addFileOpsFromMessage(result, ops);
    expect([...ops.read]).toEqual(["n.ts"]);
    expect([...ops.edited]).toEqual(["m.ts"]);
    expect([...ops.written]).toEqual([]);
  });

  test("lists modified files (written or edited) sorted, and read files only when not modified", () => {
    const ops = createFileOps();
    for (const path of ["z.ts", "a.ts", "both.ts"]) ops.read.add(path);
    ops.written.add("both.ts");
    ops.edited.add("m.ts");
    ops.written.add("b.ts");
    expect(computeFileLists(ops)).toEqual({ readFiles: ["a.ts", "z.ts"], modifiedFiles: ["b.ts", "both.ts", "m.ts"] });
  });

  test("seeds from stored details: read stays read, modified counts as edited, junk is ignored", () => {
    const ops = createFileOps();
    addFileOpsFromDetails({ readFiles: ["r", 3], modifiedFiles: ["m"] }, ops);
    addFileOpsFromDetails("not an object", ops);
    addFileOpsFromDetails({ readFiles: "r2" }, ops);
    expect([...ops.read]).toEqual(["r"]);
    expect([...ops.edited]).toEqual(["m"]);
  });

  test("formats the summary suffix with one path per line, nothing when empty", () => {
    expect(formatFileLists({ readFiles: [], modifiedFiles: [] })).toBe("");
    expect(formatFileLists({ readFiles: ["a", "b"], modifiedFiles: [] })).toBe("\n\n<read-files>\na\nb\n</read-files>");
    expect(formatFileLists({ readFiles: [], modifiedFiles: ["c"] })).toBe("\n\n<modified-files>\nc\n</modified-files>");
    expect(formatFileLists({ readFiles: ["a"], modifiedFiles: ["c"] })).toBe("\n\n<read-files>\na\n</read-files>\n\n<modified-files>\nc\n</modified-files>");
  });

  test("ignores assistant messages whose content is not a list", () => {
    const ops = createFileOps();
    addFileOpsFromMessage({ role: "assistant", content: "text" } as unknown as AgentMessage, ops);
    expect(computeFileLists(ops)).toEqual({ readFiles: [], modifiedFiles: [] });
  });
});
