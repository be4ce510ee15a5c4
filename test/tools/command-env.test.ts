/**
 * The environment of the commands the model runs, asked for before every command: each answer is
 * the one made afresh from the same inputs, whichever input changed since the last.
 */
import { describe, expect, test } from "bun:test";
import { CredentialVars, withoutCredentials } from "../../src/ai/credential-vars.ts";
import { commandEnv } from "../../src/tools/command-env.ts";
import { shellEnv } from "../../src/tools/shell.ts";

const afresh = (agentDir: string, base: Record<string, string | undefined>, named: string[] = [], passThrough?: string[]) =>
  shellEnv(agentDir, withoutCredentials(base, new CredentialVars(named), passThrough));

describe("commandEnv", () => {
  test("equals the environment made afresh as the base, the configured names, the pass-through list and the agent dir change", () => {
    const base: Record<string, string | undefined> = { PATH: "/usr/bin", HOME: "/root", MY_TOKEN: "t", CUSTOM: "c", EMPTY: undefined };
    const check = (agentDir: string, named: string[] = [], passThrough?: string[]) => {
      const options = { credentials: () => new CredentialVars(named), ...(passThrough ? { shellEnvPassthrough: passThrough } : {}) };
      const env = commandEnv(agentDir, options, base);
      expect(env).toEqual(afresh(agentDir, base, named, passThrough));
      return env;
    };
    expect(check("/a")).toEqual({ PATH: "/a/bin:/usr/bin", HOME: "/root", CUSTOM: "c" });
    check("/a");
    expect(check("/a", ["CUSTOM"])).toEqual({ PATH: "/a/bin:/usr/bin", HOME: "/root" });
    expect(check("/a", ["custom"], ["CUSTOM", "MY_TOKEN"])).toEqual({ PATH: "/a/bin:/usr/bin", HOME: "/root", MY_TOKEN: "t", CUSTOM: "c" });
    expect(check("/b")).toEqual({ PATH: "/b/bin:/usr/bin", HOME: "/root", CUSTOM: "c" });
    base.CUSTOM = "changed";
    expect(check("/b").CUSTOM).toBe("changed");
    base.ADDED = "new";
    expect(check("/b").ADDED).toBe("new");
    delete base.HOME;
    expect(check("/b").HOME).toBeUndefined();
  });

  test("each caller gets its own copy", () => {
    const base = { PATH: "/usr/bin", KEEP: "1" };
    const first = commandEnv("/a", {}, base);
    first.KEEP = "changed by the caller";
    expect(commandEnv("/a", {}, base).KEEP).toBe("1");
  });
});
