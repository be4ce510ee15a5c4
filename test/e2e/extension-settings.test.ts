/**
 * `pi.getSettings()` in an extension run by the built binary, as Pi 1.x has it: a copy of the
 * settings in force, global and project files merged.
 */
import { expect, test } from "bun:test";
import { extensionWorlds, runReportingTool } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

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
  const { run, report } = await runReportingTool(world, "settings_report", {
    settings: { compaction: { keepRecentTokens: 1234, reserveTokens: 5000 }, steeringMode: "all" },
    files: { "ext/settings.ts": EXTENSION, ".pig/settings.json": JSON.stringify({ compaction: { reserveTokens: 999 }, hideThinkingBlock: true }) },
    pigArgs: ["--trust", "-e", "ext/settings.ts"],
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
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
