/** `/extensions`: each extension's path, process, state, events, calls and last error; listed in /help. */
import { describe, expect, test } from "bun:test";
import { extensionRows, formatExtensionRows } from "../../../src/extensions/status.ts";
import { extensionsCommand } from "../../../src/modes/interactive/commands/extensions.ts";
import { builtinCommands } from "../../../src/modes/interactive/commands/index.ts";
import { makeHost } from "./fake-host.ts";

const statuses = [
  { id: "/ext/a.ts", pid: 4242, generation: 2, state: "running" as const, events: ["tool_call", "agent_end"], calls: 3, medianLatencyMs: 1.234 },
  { id: "/ext/b.ts", pid: undefined, generation: 0, state: "load-failed" as const, events: [], calls: 0, medianLatencyMs: undefined, error: "boom" },
];

describe("/extensions", () => {
  test("one block per extension: process, generation, calls with their median latency, events, last error", async () => {
    const host = makeHost();
    Object.assign(host, { extensionStatus: () => extensionRows(statuses) });
    await extensionsCommand.run(host, "");
    expect(host.text.split("\n")).toEqual([
      "/ext/a.ts",
      "  running · pid 4242 · generation 2",
      "  3 calls, median 1.23 ms",
      "  events: tool_call, agent_end",
      "/ext/b.ts",
      "  load-failed · no process · generation 0",
      "  0 calls",
      "  events: none",
      "  last error: boom",
    ]);
  });

  test("without extensions it says so; the command is one of pig's", async () => {
    const host = makeHost();
    await extensionsCommand.run(host, "");
    expect(host.text).toBe("No extensions loaded.");
    expect(builtinCommands().some((c) => c.name === "extensions")).toBe(true);
  });

  test("the RPC rows leave absent values out", () => {
    expect(extensionRows(statuses)[1]).toEqual({ path: "/ext/b.ts", generation: 0, state: "load-failed", events: [], calls: 0, error: "boom" });
    expect(formatExtensionRows([])).toEqual(["No extensions loaded."]);
  });
});
