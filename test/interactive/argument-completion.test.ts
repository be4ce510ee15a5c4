import { describe, expect, test } from "bun:test";
import { argumentProvider } from "../../src/modes/interactive/argument-completion.ts";
import type { Model } from "../../src/ai/types.ts";
import type { SessionSummary } from "../../src/session/catalog.ts";

const provider = argumentProvider({
  models: () => [{ provider: "openai", id: "gpt-x" } as Model, { provider: "anthropic", id: "claude-y" } as Model],
  sessions: () => [{ name: "fix the parser", firstMessage: "hello" } as SessionSummary],
  providers: () => ["openai", "anthropic", "ollama"],
  storedProviders: () => ["openai"],
});
const values = async (text: string) => (await provider(text, text.length))?.items.map((i) => i.value);

describe("argument completion", () => {
  test("models, sessions, providers to log in to and stored providers to log out of", async () => {
    expect(await values("/model cla")).toEqual(["anthropic/claude-y"]);
    expect(await values("/resume pars")).toEqual(["fix the parser"]);
    expect(await values("/login ")).toEqual(["anthropic", "ollama", "openai"]);
    expect(await values("/login oll")).toEqual(["ollama"]);
    expect(await values("/logout ")).toEqual(["openai"]);
    expect(await values("/other ")).toBeUndefined();
  });
  test("the replaced range starts after the command", async () => {
    const result = await provider("/login op", 9);
    expect(result).toMatchObject({ replaceFrom: 7, replaceTo: 9 });
  });
});
