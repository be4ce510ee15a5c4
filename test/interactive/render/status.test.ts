/** The line printed after each run: with a virtual model, the selection and where it sent the last request. */
import { expect, test } from "bun:test";
import type { SessionStats } from "../../../src/agent/session-report.ts";
import { createVirtualModel } from "../../../src/ai/virtual-models.ts";
import { statusLine } from "../../../src/modes/interactive/render/status.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";

const theme = loadTheme("dark", [], false).theme;
const stats = {
  sessionId: "s",
  userMessages: 1,
  assistantMessages: 1,
  toolCalls: 0,
  toolResults: 0,
  totalMessages: 2,
  tokens: { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0, total: 1230 },
  cost: 0.0123,
} satisfies SessionStats;

test("a virtual model's line names the selection, then the physical model and level of its last request", () => {
  const auto = createVirtualModel({ provider: "router", id: "auto", thinkingLevels: ["off", "high"] });
  expect(statusLine(stats, auto, "high", theme, { provider: "fake", model: "fake-reasoner", thinkingLevel: "medium" })).toBe(
    "↑1.2k ↓30  $0.0123  router/auto · high → fake/fake-reasoner · medium",
  );
  // Before its first answer there is nothing routed to name.
  expect(statusLine(stats, auto, "high", theme)).toBe("↑1.2k ↓30  $0.0123  router/auto · high");
});
