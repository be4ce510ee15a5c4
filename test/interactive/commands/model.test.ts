import { describe, expect, test } from "bun:test";
import { exactModel } from "../../../src/modes/interactive/commands/model.ts";
import { modelCommand } from "../../../src/modes/interactive/commands/model.ts";
import { makeHost } from "./fake-host.ts";

describe("/model", () => {
  test("lists available models with context size and reasoning, the current one first selected", async () => {
    const host = makeHost();
    host.pickAnswers = [{ label: "test/beta" }];
    await modelCommand.run(host, "");
    const call = host.picks[0]!;
    expect(call.config?.search).toBe(true);
    expect(call.options.map((o) => [o.label, o.hint])).toEqual([
      ["test/alpha", "200k context · reasoning · images · current"],
      ["test/beta", "32k context"],
    ]);
    expect((call.config?.initial as { id: string }).id).toBe("alpha");
    expect(host.session.model?.id).toBe("beta");
    expect(host.settings.settings.defaultModel).toBe("beta");
    expect(host.text).toContain("info: Model: test/beta");
  });

  test("an exact provider/id switches without asking", async () => {
    const host = makeHost();
    await modelCommand.run(host, "test/beta");
    expect(host.picks).toHaveLength(0);
    expect(host.session.model?.id).toBe("beta");
  });

  test("a search narrows the list", async () => {
    const host = makeHost();
    host.pickAnswers = ["cancel"];
    await modelCommand.run(host, "bet");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["test/beta"]);
    expect(host.session.model?.id).toBe("alpha");
  });

  test("a search matching nothing says so", async () => {
    const host = makeHost();
    await modelCommand.run(host, "gpt-9");
    expect(host.text).toContain('warn: No available model matches "gpt-9"');
  });

  test("an id is exact only when one provider has it", () => {
    const base = { name: "", api: "openai-completions" as const, baseUrl: "", reasoning: false, input: ["text" as const], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1, maxTokens: 1 };
    const models = [
      { ...base, provider: "a", id: "x" },
      { ...base, provider: "b", id: "x" },
      { ...base, provider: "b", id: "y" },
    ];
    expect(exactModel(models, "x")).toBeUndefined();
    expect(exactModel(models, "B/X")?.provider).toBe("b");
    expect(exactModel(models, "y")?.provider).toBe("b");
  });
});
