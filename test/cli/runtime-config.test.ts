import { describe, expect, test } from "bun:test";
import { parseCliArgs, type CliArgs } from "../../src/cli/args.ts";
import { runtimeConfigFromArgs } from "../../src/cli/runtime-config.ts";

const config = (...argv: string[]) => runtimeConfigFromArgs(parseCliArgs(argv), { cwd: "/project", interactive: false, env: {} });

describe("command line → runtime configuration", () => {
  test("--no-session wins over --session, which wins over --continue", () => {
    const from = (args: Partial<CliArgs>) =>
      runtimeConfigFromArgs({ files: [], messages: [], ...args }, { cwd: "/project", interactive: false, env: {} }).session;
    expect(from({ noSession: true, session: "abc", continue: true })).toEqual({ kind: "none" });
    expect(from({ session: "abc", continue: true })).toEqual({ kind: "open", pathOrId: "abc" });
    expect(config("-c").session).toEqual({ kind: "continue" });
    expect(config().session).toEqual({ kind: "new" });
  });

  test("comma lists become names, without spaces or empty items", () => {
    const c = config("--tools", "read, bash,", "--exclude-tools", "edit", "--models", "a/*,b");
    expect(c.tools).toEqual(["read", "bash"]);
    expect(c.excludeTools).toEqual(["edit"]);
    expect(c.models).toEqual(["a/*", "b"]);
  });

  test("--piglet names the Piglet for the runtime; an empty name is refused", () => {
    expect(config("--piglet", "reviewer").piglet).toBe("reviewer");
    expect(config().piglet).toBeUndefined();
    expect(() => config("--piglet", " ")).toThrow("--piglet: must not be empty");
  });

  test("no --tools leaves the choice to the settings", () => {
    const c = config();
    expect(c.tools).toBeUndefined();
    expect(c.noTools).toBe(false);
  });

  test("--trust and --no-trust decide for this run; neither leaves it to the saved decision", () => {
    expect(config("--trust").trust).toBe(true);
    expect(config("--no-trust").trust).toBe(false);
    expect("trust" in config()).toBe(false);
  });

  test("resource flags are passed as they were given", () => {
    const c = config("--system-prompt", "S", "--append-system-prompt", "A", "--skill", "x", "-ns", "-nc");
    expect(c.resources).toEqual({
      systemPrompt: "S",
      appendSystemPrompt: ["A"],
      skills: ["x"],
      noSkills: true,
      noPromptTemplates: false,
      noThemes: false,
      noContextFiles: true,
    });
  });
});
