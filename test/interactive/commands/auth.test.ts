import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tempDir } from "../../helpers/tmp.ts";
import { join } from "node:path";
import { loginCommand, logoutCommand } from "../../../src/modes/interactive/commands/auth.ts";
import { makeHost } from "./fake-host.ts";

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
    expect(host.text).toContain("info: No keys are stored in");
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
    expect(host.text).toContain(`info: Removed the login for anthropic from ${join(host.agentDir, "auth.json")}.`);
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
