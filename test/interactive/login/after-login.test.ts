import { describe, expect, test } from "bun:test";
import { defaultModelOf } from "../../../src/ai/catalogue/index.ts";
import type { Model } from "../../../src/ai/types.ts";
import { availableWords, modelAfterLogin } from "../../../src/modes/interactive/login/after-login.ts";

const model = (provider: string, id: string) => ({ provider, id }) as Model;

describe("after a login", () => {
  test("the model changes only when none could be used before: to the provider's default, else its first", () => {
    const preferred = defaultModelOf("anthropic")!;
    const available = [model("fake", "f"), model("anthropic", "claude-other"), model("anthropic", preferred)];
    expect(modelAfterLogin("anthropic", available, true)).toBeUndefined();
    expect(modelAfterLogin("anthropic", available, false)).toEqual(model("anthropic", preferred));
    expect(modelAfterLogin("custom", [model("custom", "a"), model("custom", "b")], false)).toEqual(model("custom", "a"));
    expect(modelAfterLogin("custom", [model("fake", "f")], false)).toBeUndefined();
  });

  test("the models now available: a few named, the rest counted; none known is said", () => {
    const many = Array.from({ length: 7 }, (_, i) => model("p", `m${i}`));
    expect(availableWords("p", many)).toBe("7 models available: p/m0, p/m1, p/m2, p/m3, p/m4 and 2 more (/model lists them)");
    expect(availableWords("p", [model("p", "one")])).toBe("1 model available: p/one");
    expect(availableWords("q", many)).toBe("no q models are known to pig yet (models.json can add them)");
  });
});
