/**
 * `pi.getSettings()` in an extension run by the built binary, as Pi 1.x has it: a copy of the
 * settings in force, global and project files merged.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

const EXTENSION = `
export default function (pi) {
  pi.registerTool({
    name: "settings_report",
    label: "Settings",
    description: "Reports the settings",
    parameters: { type: "object", properties: {} },
    async execute() {
      const first = pi.getSettings();
      first.compaction.keepRecentTokens = 1;
      first.added = true;
      return { content: [{ type: "text", text: JSON.stringify({ first, second: pi.getSettings() }) }], details: {} };
    },
  });
}
`;

test("pi.getSettings() gives a copy of the merged settings: global and project files, the project's values winning", async () => {
  const w = await world([{ toolCalls: [{ name: "settings_report", arguments: {} }] }, { text: "done" }], {
    settings: { compaction: { keepRecentTokens: 1234, reserveTokens: 5000 }, steeringMode: "all" },
    files: { "ext/settings.ts": EXTENSION, ".pig/settings.json": JSON.stringify({ compaction: { reserveTokens: 999 }, hideThinkingBlock: true }) },
  });
  const run = await w.run(["-p", "--trust", "-e", join(w.cwd, "ext", "settings.ts"), "report"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const tool = (w.llm.requests[1]!.body as { messages: Json[] }).messages.find((m) => m.role === "tool")!;
  const report = JSON.parse(typeof tool.content === "string" ? tool.content : tool.content.map((p: Json) => p.text ?? "").join(""));
  expect(report.second).toMatchObject({
    defaultProvider: "fake",
    defaultModel: "fake-model",
    steeringMode: "all",
    hideThinkingBlock: true,
    compaction: { keepRecentTokens: 1234, reserveTokens: 999 },
  });
  expect(report.second.added).toBeUndefined();
  expect(report.first).toMatchObject({ added: true, compaction: { keepRecentTokens: 1 } });
});
