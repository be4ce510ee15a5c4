import { describe, expect, test } from "bun:test";
import { findCommand, parseSlash } from "../../../src/modes/interactive/commands/dispatch.ts";
import { about, type BuiltinCommandName } from "../../../src/modes/interactive/commands/about.ts";
import { BUILTIN_COMMAND_LOADERS, builtinCommands } from "../../../src/modes/interactive/commands/index.ts";
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
  test("each command's module is loaded on its first use: the one its name names, with the name, description and hint of about.ts", async () => {
    const names = Object.keys(BUILTIN_COMMAND_LOADERS) as BuiltinCommandName[];
    expect(commands.map((c) => c.name)).toEqual(names);
    for (const name of names) {
      const listed = findCommand(commands, name)!;
      const loaded = await BUILTIN_COMMAND_LOADERS[name](commands);
      expect({ name: listed.name, description: listed.description, argumentHint: listed.argumentHint }).toEqual({ argumentHint: undefined, ...about(name) });
      expect({ name: loaded.name, description: loaded.description, argumentHint: loaded.argumentHint }).toEqual({ argumentHint: undefined, ...about(name) });
    }
    // Listed before its module is loaded, a command runs it once loaded: /quit leaves, /help lists /quit.
    const host = makeHost();
    await findCommand(builtinCommands(), "quit")!.run(host, "");
    expect(host.exited).toBe(true);
    const helped = makeHost();
    await findCommand(commands, "help")!.run(helped, "");
    expect(helped.text).toContain("/quit");
  });
});
