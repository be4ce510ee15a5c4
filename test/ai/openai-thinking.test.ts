/** Thinking levels: supported levels, clamping (session-format.md §9) and effort values. */
import { describe, expect, test } from "bun:test";
import { clampThinkingLevel, reasoningEffortFor, supportedThinkingLevels, thinkingEnabled } from "../../src/ai/thinking.ts";
import type { Model, ThinkingLevelMap } from "../../src/ai/types.ts";

function model(reasoning: boolean, thinkingLevelMap?: ThinkingLevelMap): Model {
  return {
    id: "m",
    name: "m",
    api: "openai-completions",
    provider: "p",
    baseUrl: "http://x/v1",
    reasoning,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...(thinkingLevelMap ? { thinkingLevelMap } : {}),
  };
}

describe("supportedThinkingLevels", () => {
  test("a model without reasoning: off only", () => {
    expect(supportedThinkingLevels(model(false))).toEqual(["off"]);
  });
  test("a reasoning model without a map: off to high, no xhigh", () => {
    expect(supportedThinkingLevels(model(true))).toEqual(["off", "minimal", "low", "medium", "high"]);
  });
  test("xhigh only when mapped; null marks a level unsupported", () => {
    expect(supportedThinkingLevels(model(true, { xhigh: "xhigh" }))).toEqual(["off", "minimal", "low", "medium", "high", "xhigh"]);
    expect(supportedThinkingLevels(model(true, { off: null, xhigh: "xhigh" }))).toEqual(["minimal", "low", "medium", "high", "xhigh"]);
    expect(supportedThinkingLevels(model(true, { minimal: null, low: null, medium: null, high: "high", xhigh: "max" }))).toEqual([
      "off",
      "high",
      "xhigh",
    ]);
    expect(supportedThinkingLevels(model(true, { xhigh: null }))).toEqual(["off", "minimal", "low", "medium", "high"]);
  });
});

describe("clampThinkingLevel", () => {
  test("non-reasoning models always get off", () => {
    expect(clampThinkingLevel(model(false), "high")).toBe("off");
    expect(clampThinkingLevel(model(false), "off")).toBe("off");
  });
  test("supported levels stay", () => {
    expect(clampThinkingLevel(model(true), "medium")).toBe("medium");
    expect(clampThinkingLevel(model(true, { xhigh: "xhigh" }), "xhigh")).toBe("xhigh");
  });
  test("unmapped xhigh falls back to the closest lower level", () => {
    expect(clampThinkingLevel(model(true), "xhigh")).toBe("high");
    expect(clampThinkingLevel(model(true, { high: null }), "xhigh")).toBe("medium");
  });
  test("an unsupported level tries the next higher supported one first", () => {
    const deepseek = model(true, { minimal: null, low: null, medium: null, high: "high", xhigh: "max" });
    expect(clampThinkingLevel(deepseek, "minimal")).toBe("high");
    expect(clampThinkingLevel(deepseek, "medium")).toBe("high");
    expect(clampThinkingLevel(model(true, { off: null }), "off")).toBe("minimal");
    expect(clampThinkingLevel(model(true, { low: null, medium: null, high: null }), "medium")).toBe("minimal");
  });
  test("nothing supported at all: off", () => {
    expect(clampThinkingLevel(model(true, { off: null, minimal: null, low: null, medium: null, high: null }), "high")).toBe("off");
  });
});

describe("reasoningEffortFor", () => {
  test("unmapped levels are sent by name; xhigh only when mapped", () => {
    const m = model(true);
    expect(reasoningEffortFor(m, "minimal")).toBe("minimal");
    expect(reasoningEffortFor(m, "low")).toBe("low");
    expect(reasoningEffortFor(m, "medium")).toBe("medium");
    expect(reasoningEffortFor(m, "high")).toBe("high");
    expect(reasoningEffortFor(m, "xhigh")).toBeUndefined();
    expect(reasoningEffortFor(model(true, { xhigh: "xhigh" }), "xhigh")).toBe("xhigh");
  });
  test("mapped values win; null means nothing to send", () => {
    const m = model(true, { minimal: null, high: "high", xhigh: "max", off: "none" });
    expect(reasoningEffortFor(m, "xhigh")).toBe("max");
    expect(reasoningEffortFor(m, "minimal")).toBeUndefined();
    expect(reasoningEffortFor(m, "off")).toBe("none");
  });
  test("off without a mapping, and models without reasoning, send nothing", () => {
    expect(reasoningEffortFor(model(true), "off")).toBeUndefined();
    expect(reasoningEffortFor(model(true), undefined)).toBeUndefined();
    expect(reasoningEffortFor(model(false), "high")).toBeUndefined();
  });
  test("thinkingEnabled", () => {
    expect(thinkingEnabled(model(true), "low")).toBe(true);
    expect(thinkingEnabled(model(true), "off")).toBe(false);
    expect(thinkingEnabled(model(true), undefined)).toBe(false);
    expect(thinkingEnabled(model(false), "high")).toBe(false);
  });
});

describe("the max level", () => {
  test("offered only when the map names it, like xhigh; it sits above xhigh", () => {
    expect(supportedThinkingLevels(model(true))).not.toContain("max");
    expect(supportedThinkingLevels(model(true, { max: "max" }))).toEqual(["off", "minimal", "low", "medium", "high", "max"]);
    expect(supportedThinkingLevels(model(true, { xhigh: "xhigh", max: "max" }))).toEqual(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);
    expect(supportedThinkingLevels(model(false, { max: "max" }))).toEqual(["off"]);
  });

  test("an unsupported max falls back to the closest lower level; xhigh asked of a max-only model goes up to max", () => {
    expect(clampThinkingLevel(model(true, { xhigh: "xhigh" }), "max")).toBe("xhigh");
    expect(clampThinkingLevel(model(true), "max")).toBe("high");
    expect(clampThinkingLevel(model(true, { max: "max" }), "xhigh")).toBe("max");
    expect(clampThinkingLevel(model(false, { max: "max" }), "max")).toBe("off");
  });

  test("sent as the mapped value, nothing when unmapped", () => {
    expect(reasoningEffortFor(model(true, { max: "max" }), "max")).toBe("max");
    expect(reasoningEffortFor(model(true, { max: "xhigh" }), "max")).toBe("xhigh");
    expect(reasoningEffortFor(model(true), "max")).toBeUndefined();
    expect(thinkingEnabled(model(true), "max")).toBe(false);
  });
});
