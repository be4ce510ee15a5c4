import { describe, expect, test } from "bun:test";
import { argumentProvider, loginItems } from "../../src/modes/interactive/argument-completion.ts";
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

describe("/login completion with subscription logins", () => {
  const subscriptions = [
    { provider: "anthropic", name: "Claude Pro/Max", flow: "browser" as const },
    { provider: "openai-codex", name: "ChatGPT Plus/Pro (Codex)", flow: "browser" as const },
  ];
  test("subscription providers are offered beside key providers, each saying how it signs in", () => {
    expect(loginItems("", ["anthropic", "openai"], subscriptions)).toEqual([
      { value: "anthropic", label: "anthropic", hint: "subscription (Claude Pro/Max) · API key" },
      { value: "openai", label: "openai", hint: "API key" },
      { value: "openai-codex", label: "openai-codex", hint: "subscription (ChatGPT Plus/Pro (Codex))" },
    ]);
  });
  test("the account's name matches as well as the id", async () => {
    const withSubs = argumentProvider({ models: () => [], sessions: () => [], providers: () => ["openai"], subscriptions: () => subscriptions });
    const result = await withSubs("/login chatgpt", 14);
    expect(result?.items.map((i) => i.value)).toEqual(["openai-codex"]);
  });
});
