import { describe, expect, test } from "bun:test";
import { findCommand, parseSlash } from "../../../src/modes/interactive/commands/dispatch.ts";
import { builtinCommands } from "../../../src/modes/interactive/commands/index.ts";
import { makeHost } from "./fake-host.ts";

describe("parseSlash", () => {
  test("splits the name from trimmed arguments", () => {
    expect(parseSlash("/model  claude opus ")).toEqual({ name: "model", args: "claude opus" });
    expect(parseSlash("/new")).toEqual({ name: "new", args: "" });
  });

  test("keeps multi-line arguments", () => {
    expect(parseSlash("/compact keep\nthe tests")).toEqual({ name: "compact", args: "keep\nthe tests" });
  });

  test("accepts skill-style names, which the caller hands to the session", () => {
    expect(parseSlash("/skill:review src/")).toEqual({ name: "skill:review", args: "src/" });
  });

  test("is not a command: plain text, a lone slash, a path", () => {
    expect(parseSlash("hello /model")).toBeUndefined();
    expect(parseSlash("/")).toBeUndefined();
    expect(parseSlash("/ model")).toBeUndefined();
    expect(parseSlash("/usr/bin/env is broken")).toBeUndefined();
  });
});

describe("findCommand", () => {
  const commands = builtinCommands();

  test("finds built-ins by exact name and leaves unknown names to the caller", () => {
    expect(findCommand(commands, "model")?.name).toBe("model");
    expect(findCommand(commands, "mod")).toBeUndefined();
    expect(findCommand(commands, "skill:review")).toBeUndefined();
  });

  test("every built-in has a unique name and a description", () => {
    const names = commands.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of commands) expect(command.description.length).toBeGreaterThan(0);
    expect(names).toEqual(expect.arrayContaining(["model", "settings", "resume", "new", "name", "session", "tree", "fork", "clone", "label", "compact", "copy", "export", "import", "share", "login", "logout", "scoped-models", "reload", "hotkeys", "quit"]));
  });

  test("a failing command reports its error instead of throwing", async () => {
    const host = makeHost();
    await findCommand(commands, "name")!.run(host, "   ");
    expect(host.text).toBe("error: Session name cannot be empty");
  });
});
