import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tempDir } from "../../helpers/tmp.ts";
import { join } from "node:path";
import { loginCommand, logoutCommand } from "../../../src/modes/interactive/commands/auth.ts";
import { makeHost, type FakeHost } from "./fake-host.ts";
import { defaultModelOf } from "../../../src/ai/catalogue/index.ts";
import { LoginFailed, type LoginIO } from "../../../src/ai/oauth/types.ts";

const authOf = (agentDir: string) => JSON.parse(readFileSync(join(agentDir, "auth.json"), "utf8")) as Record<string, unknown>;

describe("/login and /logout", () => {
  test("/login stores the key (0600), keeps other entries, and the key is used at once", async () => {
    const host = makeHost();
    writeFileSync(join(host.agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "sk-old" } }));
    host.registry.reloadAuth();
    expect(host.registry.hasKey("anthropic")).toBe(false);
    host.askAnswers = ["  sk-ant-new  "];
    await loginCommand.run(host, "anthropic");
    expect(host.asks[0]).toMatchObject({ message: "anthropic API key", config: { mask: true } });
    expect(authOf(host.agentDir)).toEqual({ openai: { type: "api_key", key: "sk-old" }, anthropic: { type: "api_key", key: "sk-ant-new" } });
    expect(statSync(join(host.agentDir, "auth.json")).mode & 0o777).toBe(0o600);
    expect(host.registry.hasKey("anthropic")).toBe(true);
    expect(host.text).toContain(`info: Saved the key for anthropic in ${join(host.agentDir, "auth.json")}`);
  });

  test("/login without a provider asks which; a cancelled key question changes nothing", async () => {
    const host = makeHost();
    host.pickAnswers = [{ value: "openai" }];
    host.askAnswers = [""];
    await loginCommand.run(host, "");
    expect(host.picks[0]!.options.map((o) => o.value)).toContain("anthropic");
    expect(() => readFileSync(join(host.agentDir, "auth.json"))).toThrow();
  });

  test("an unknown provider is named", async () => {
    const host = makeHost();
    await loginCommand.run(host, "nosuch");
    expect(host.text).toContain('error: Unknown provider "nosuch"');
  });

  test("/logout removes only that provider's entry; says so when nothing is stored", async () => {
    const host = makeHost();
    await logoutCommand.run(host, "");
    expect(host.text).toContain("info: Nothing is stored in");
    writeFileSync(join(host.agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "a" }, anthropic: { type: "api_key", key: "b" } }));
    host.registry.reloadAuth();
    await logoutCommand.run(host, "openai");
    expect(authOf(host.agentDir)).toEqual({ anthropic: { type: "api_key", key: "b" } });
    expect(host.registry.hasKey("openai")).toBe(false);
    expect(host.text).toContain("info: Removed the key for openai");
  });

  test("/logout removes a subscription login and calls it a login; the provider has no credentials after", async () => {
    const host = makeHost();
    writeFileSync(join(host.agentDir, "auth.json"), JSON.stringify({ anthropic: { type: "oauth", access: "sk-ant-oat01-x", refresh: "rt-x", expires: 1, extra: "kept by others" } }));
    host.registry.reloadAuth();
    expect(host.registry.credentialKind("anthropic")).toBe("oauth");
    await logoutCommand.run(host, "anthropic");
    expect(authOf(host.agentDir)).toEqual({});
    expect(host.text).toContain(`info: Signed out of anthropic: its subscription login was removed from ${join(host.agentDir, "auth.json")}.`);
    expect(host.registry.credentialKind("anthropic")).toBeUndefined();
  });

  test("a symlinked auth.json is written where it points; unknown fields of entries are kept", async () => {
    const host = makeHost();
    const real = join(tempDir(), "real-auth.json");
    writeFileSync(real, JSON.stringify({ openai: { type: "api_key", key: "a", note: "work account" } }));
    symlinkSync(real, join(host.agentDir, "auth.json"));
    host.askAnswers = ["b"];
    await loginCommand.run(host, "anthropic");
    expect(lstatSync(join(host.agentDir, "auth.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8"))).toEqual({
      openai: { type: "api_key", key: "a", note: "work account" },
      anthropic: { type: "api_key", key: "b" },
    });
    expect(existsSync(`${real}.lock`)).toBe(false);
  });

  test("a broken auth.json is reported and left as it is", async () => {
    const host = makeHost();
    writeFileSync(join(host.agentDir, "auth.json"), "{ broken");
    host.askAnswers = ["k"];
    await loginCommand.run(host, "openai");
    expect(host.text).toContain("error: Could not save the key:");
    expect(host.text).toContain("auth.json: not valid JSON: unexpected character at line 1, column 3; pig does not rewrite a file it could not fully read, so fix it first");
    expect(readFileSync(join(host.agentDir, "auth.json"), "utf8")).toBe("{ broken");
  });
});

const CLAUDE = { provider: "anthropic", name: "Claude Pro/Max", flow: "browser" as const };
const CODEX = { provider: "test", name: "Test Plus", flow: "device" as const };

/** A flow that signs in at once: it tells the URL, then stores an OAuth entry as the real flows do. */
function storingFlow(host: FakeHost) {
  host.subscriptions.flow = async (provider: string, io: LoginIO, authPath: string) => {
    io.tell({ kind: "open_url", url: "https://auth.example/authorize?state=s" });
    const entry = { type: "oauth", access: `tok-${provider}-0123456789`, refresh: "rt-0123456789", expires: Date.now() + 3_600_000 };
    const current = (() => {
      try {
        return JSON.parse(readFileSync(authPath, "utf8")) as Record<string, unknown>;
      } catch {
        return {};
      }
    })();
    writeFileSync(authPath, JSON.stringify({ ...current, [provider]: entry }), { mode: 0o600 });
  };
}

describe("/login with an account", () => {
  test("no argument: how, then which account (signed-in ones marked), then the flow; the current usable model stays", async () => {
    const host = makeHost();
    host.subscriptions.logins = [CLAUDE, CODEX];
    writeFileSync(join(host.agentDir, "auth.json"), JSON.stringify({ test: { type: "oauth", access: "old-token-0123456789" } }));
    host.registry.reloadAuth();
    storingFlow(host);
    host.pickAnswers = [{ value: "subscription" }, { label: "Claude Pro/Max" }];
    await loginCommand.run(host, "");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["Sign in with an account (subscription)", "Use an API key"]);
    expect(host.picks[1]!.options.map((o) => [o.label, o.hint])).toEqual([
      ["Claude Pro/Max", "anthropic"],
      ["Test Plus", "test · signed in"],
    ]);
    expect(host.subscriptions.signIns).toEqual(["anthropic"]);
    expect(authOf(host.agentDir).anthropic).toMatchObject({ type: "oauth" });
    expect(host.text).toContain("https://auth.example/authorize?state=s");
    expect(host.text).toContain(`info: Signed in to Claude Pro/Max (anthropic); saved in ${join(host.agentDir, "auth.json")}.`);
    expect(host.registry.hasKey("anthropic")).toBe(true);
    expect(host.session.model?.provider).toBe("test");
  });

  test("Escape in the account list goes back to how; Escape there ends /login", async () => {
    const host = makeHost();
    host.subscriptions.logins = [CLAUDE];
    host.pickAnswers = [{ value: "subscription" }, "cancel", "cancel"];
    await loginCommand.run(host, "");
    expect(host.picks.map((p) => p.message)).toEqual(["Sign in how?", "Sign in with which account?", "Sign in how?"]);
    expect(host.subscriptions.signIns).toEqual([]);
  });

  test("/login <provider> with both ways asks how; with only a subscription it starts at once", async () => {
    const host = makeHost();
    host.subscriptions.logins = [CLAUDE, { provider: "only-sub", name: "Only Sub", flow: "browser" }];
    storingFlow(host);
    host.pickAnswers = [{ value: "api_key" }];
    host.askAnswers = ["sk-ant-key-0123456789"];
    await loginCommand.run(host, "anthropic");
    expect(host.picks[0]!.message).toBe("Sign in to anthropic how?");
    expect(host.picks[0]!.options[0]!.label).toBe("Sign in with an account (Claude Pro/Max)");
    expect(authOf(host.agentDir).anthropic).toEqual({ type: "api_key", key: "sk-ant-key-0123456789" });
    await loginCommand.run(host, "Only Sub");
    expect(host.subscriptions.signIns).toEqual(["only-sub"]);
    await loginCommand.run(host, "nosuch");
    expect(host.text).toMatch(/error: Unknown provider "nosuch". Known: .*anthropic, /);
    expect(host.text).toContain("only-sub");
  });

  test("without a usable model before, the signed-in provider's default model becomes current", async () => {
    const keyless = { provider: "openai", id: defaultModelOf("openai")! };
    const host = makeHost({ model: keyless });
    expect(host.session.model).toMatchObject(keyless);
    expect(host.registry.hasKey("openai")).toBe(false);
    host.subscriptions.logins = [CLAUDE];
    storingFlow(host);
    await loginCommand.run(host, "Claude Pro/Max");
    expect(host.text).toMatch(/Signed in to Claude Pro\/Max \(anthropic\); saved in .* \d+ models? available: anthropic\//);
    expect(host.text).toContain(`info: Model: anthropic/${defaultModelOf("anthropic")}`);
    expect(host.session.model).toMatchObject({ provider: "anthropic", id: defaultModelOf("anthropic") });
  });

  test("a cancelled sign-in stores nothing and says so; a failed one names the provider and the reason", async () => {
    const host = makeHost();
    host.subscriptions.logins = [CLAUDE];
    host.subscriptions.flow = async (_provider, io) => {
      await new Promise<void>((resolve) => io.signal.addEventListener("abort", () => resolve(), { once: true }));
      throw new Error("callback server closed");
    };
    const running = loginCommand.run(host, "Claude Pro/Max");
    while (!host.cancelling) await Promise.resolve();
    host.cancelling.abort();
    await running;
    expect(host.text).toContain("info: Sign-in to Claude Pro/Max cancelled; nothing was stored.");
    expect(existsSync(join(host.agentDir, "auth.json"))).toBe(false);
    host.subscriptions.flow = async () => {
      throw new LoginFailed("The token endpoint answered HTTP 400: invalid_grant (authorization code expired)");
    };
    await loginCommand.run(host, "Claude Pro/Max");
    expect(host.text).toContain("error: Could not sign in to Claude Pro/Max (anthropic): The token endpoint answered HTTP 400: invalid_grant (authorization code expired)");
  });
});

describe("/logout of a subscription", () => {
  test("the list says which entry is a subscription and which a key; removing one says what still applies", async () => {
    const host = makeHost();
    host.subscriptions.logins = [CLAUDE];
    writeFileSync(
      join(host.agentDir, "auth.json"),
      JSON.stringify({ anthropic: { type: "oauth", access: "tok-0123456789", refresh: "rt-0123456789" }, openai: { type: "api_key", key: "sk-0123456789" } }),
    );
    host.registry.reloadAuth();
    host.pickAnswers = [{ value: "anthropic" }];
    await logoutCommand.run(host, "");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["anthropic · subscription (Claude Pro/Max)", "openai · API key"]);
    expect(authOf(host.agentDir)).toEqual({ openai: { type: "api_key", key: "sk-0123456789" } });
    expect(host.text).toContain("info: Signed out of anthropic: its subscription login was removed from");
    expect(host.text).toContain("Nothing else gives pig access to anthropic now");
    await logoutCommand.run(host, "nosuch");
    expect(host.text).toContain('error: Nothing is stored for "nosuch". Stored: openai (API key)');
  });
});
