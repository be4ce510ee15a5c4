import { expect, test } from "bun:test";
import { catalogueModels } from "../../../src/ai/catalogue/index.ts";
import type { Model } from "../../../src/ai/types.ts";
import { clampThinkingLevel, getSupportedThinkingLevels, modelsAreEqual } from "../../../src/extensions/compat/ai.ts";

const plain = { ...catalogueModels("anthropic")[0]!, reasoning: false } as Model;
const reasoning = { ...catalogueModels("anthropic")[0]!, reasoning: true, thinkingLevelMap: undefined } as Model;
const withMax = { ...reasoning, thinkingLevelMap: { max: "max" } } as unknown as Model;

test("pi-ai's thinking helpers, as pi-web-access calls them: a level the model has, else the next one up, else down", () => {
  expect(getSupportedThinkingLevels(plain)).toEqual(["off"]);
  expect(clampThinkingLevel(plain, "high")).toBe("off");
  expect(getSupportedThinkingLevels(reasoning)).toEqual(["off", "minimal", "low", "medium", "high"]);
  expect(clampThinkingLevel(reasoning, "medium")).toBe("medium");
  expect(clampThinkingLevel(reasoning, "xhigh")).toBe("high");
  expect(clampThinkingLevel(withMax, "xhigh")).toBe("max");
});

test("modelsAreEqual compares provider and id, and is false for a missing model", () => {
  expect(modelsAreEqual(reasoning, { ...reasoning })).toBe(true);
  expect(modelsAreEqual(reasoning, { ...reasoning, id: "other" } as Model)).toBe(false);
  expect(modelsAreEqual(reasoning, undefined)).toBe(false);
});
