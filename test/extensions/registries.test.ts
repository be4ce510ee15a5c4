import { describe, expect, test } from "bun:test";
import { CommandRegistry, runCommandIfAny, type CommandContext } from "../../src/extensions/commands.ts";
import { FlagRegistry } from "../../src/extensions/flags.ts";
import { ShortcutRegistry } from "../../src/extensions/shortcuts.ts";
import { HEADLESS_UI } from "../../src/extensions/ui.ts";
import { KeyBindings, resolveKeybindings } from "../../src/modes/interactive/input/keybindings.ts";
import { builtinKeys as builtin, extensionKey } from "../../src/modes/interactive/shortcut-keys.ts";

const info = (path: string) => ({ path, source: "local", scope: "user" as const, origin: "top-level" as const });
const ctx: CommandContext = { ui: HEADLESS_UI, hasUI: false };

describe("command registry", () => {
  test("a prompt /name runs the handler with everything after the first space, untrimmed", async () => {
    const registry = new CommandRegistry();
    const calls: string[] = [];
    registry.register({ name: "deploy", handler: async (args) => void calls.push(args) }, info("/ext/a.ts"));
    await registry.match("/deploy")!.run(ctx);
    await registry.match("/deploy  staging now ")!.run(ctx);
    expect(calls).toEqual(["", " staging now "]);
    expect(registry.match("/deployx")).toBeUndefined();
    expect(registry.match("deploy")).toBeUndefined();
    expect(registry.match("/")).toBeUndefined();
  });

  test("a repeated name is invoked as name:1, name:2 in load order; a unique one keeps its name", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "go", description: "first", handler: async () => {} }, info("/a.ts"));
    registry.register({ name: "solo", handler: async () => {} }, info("/a.ts"));
    registry.register({ name: "go", description: "second", handler: async () => {} }, info("/b.ts"));
    expect(registry.list()).toEqual([
      { name: "go:1", description: "first", source: "extension", sourceInfo: info("/a.ts") },
      { name: "solo", source: "extension", sourceInfo: info("/a.ts") },
      { name: "go:2", description: "second", source: "extension", sourceInfo: info("/b.ts") },
    ]);
    expect(registry.match("/go")).toBeUndefined();
    expect(registry.match("/go:2 x")!.command.description).toBe("second");
  });

  test("a command literally named like a numbered duplicate keeps its name; the duplicate moves on", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "x:1", handler: async () => {} }, info("/a.ts"));
    registry.register({ name: "x", handler: async () => {} }, info("/b.ts"));
    registry.register({ name: "x", handler: async () => {} }, info("/c.ts"));
    expect(registry.list().map((c) => c.name)).toEqual(["x:1", "x:2", "x:3"]);
  });

  test("unregistering an extension renumbers what is left", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "go", handler: async () => {} }, info("/a.ts"));
    registry.register({ name: "go", handler: async () => {} }, info("/b.ts"));
    registry.unregisterFrom("/a.ts");
    expect(registry.list().map((c) => c.name)).toEqual(["go"]);
  });

  test("runCommandIfAny: false for text that is no command; a throwing handler is reported, not thrown", async () => {
    const registry = new CommandRegistry();
    registry.register({ name: "boom", handler: async () => { throw new Error("bad"); } }, info("/ext/boom.ts"));
    const failures: unknown[] = [];
    expect(await runCommandIfAny(registry, "hello", ctx, (f) => failures.push(f))).toBe(false);
    expect(await runCommandIfAny(undefined, "/boom", ctx, (f) => failures.push(f))).toBe(false);
    expect(await runCommandIfAny(registry, "/boom", ctx, (f) => failures.push(f))).toBe(true);
    expect(failures).toEqual([{ extensionPath: "/ext/boom.ts", event: "command", error: "bad" }]);
  });
});

describe("flag registry", () => {
  test("the first extension to register a name owns it; a later one gets a conflict", () => {
    const flags = new FlagRegistry();
    expect(flags.register({ name: "plan", type: "boolean", default: false }, "/a.ts")).toBeUndefined();
    expect(flags.register({ name: "plan", type: "string" }, "/b.ts")).toEqual({ extensionPath: "/b.ts", message: 'Flag "--plan" conflicts with /a.ts' });
    expect(flags.get("plan")).toMatchObject({ type: "boolean", extensionPath: "/a.ts" });
  });

  test("getFlag: the value given, else the default, else undefined", () => {
    const flags = new FlagRegistry();
    flags.register({ name: "level", type: "string", default: "low" }, "/a.ts");
    flags.register({ name: "dry", type: "boolean" }, "/a.ts");
    expect(flags.getFlag("level")).toBe("low");
    expect(flags.getFlag("dry")).toBeUndefined();
    flags.set("level", "high");
    expect(flags.getFlag("level")).toBe("high");
    expect(flags.valuesFor("/a.ts")).toEqual({ level: "high" });
  });
});

describe("shortcut registry", () => {

  test("keys of reserved actions are refused, other built-in keys are taken with a warning", () => {
    const shortcuts = new ShortcutRegistry();
    const handler = () => {};
    shortcuts.register("ctrl+p", { handler }, "/a.ts"); // app.model.cycleForward: reserved
    shortcuts.register("ctrl+k", { handler }, "/a.ts"); // tui.editor.deleteToLineEnd: reserved
    shortcuts.register("alt+o", { handler }, "/a.ts"); // app.tools.toggleAll: not reserved
    shortcuts.register("ctrl+alt+x", { handler }, "/a.ts");
    const resolved = shortcuts.resolve(builtin(KeyBindings.defaults()), extensionKey);
    expect(resolved.list().map((s) => s.key)).toEqual(["alt+o", "ctrl+alt+x"]);
    expect(resolved.diagnostics.map((d) => d.message)).toEqual([
      "Extension shortcut 'ctrl+p' from /a.ts conflicts with built-in shortcut (app.model.cycleForward). Skipping.",
      "Extension shortcut 'ctrl+k' from /a.ts conflicts with built-in shortcut (tui.editor.deleteToLineEnd). Skipping.",
      "Extension shortcut conflict: 'alt+o' is built-in shortcut for app.tools.toggleAll and /a.ts. Using /a.ts.",
    ]);
  });

  test("a reserved action's key is the one the user bound it to", () => {
    const { bindings } = resolveKeybindings({ "app.model.select": "ctrl+alt+m" }, "keybindings.json");
    const shortcuts = new ShortcutRegistry();
    shortcuts.register("ctrl+alt+m", { handler: () => {} }, "/a.ts");
    shortcuts.register("ctrl+l", { handler: () => {} }, "/a.ts");
    const resolved = shortcuts.resolve(builtin(bindings), extensionKey);
    expect(resolved.list().map((s) => s.key)).toEqual(["ctrl+l"]);
  });

  test("two extensions on one key: the later wins, with a warning; a key that cannot be pressed is skipped", () => {
    const shortcuts = new ShortcutRegistry();
    shortcuts.register("Ctrl+Alt+Y", { handler: () => {} }, "/a.ts");
    shortcuts.register("ctrl+alt+y", { handler: () => {} }, "/b.ts");
    shortcuts.register("x", { handler: () => {} }, "/c.ts");
    const resolved = shortcuts.resolve(builtin(KeyBindings.defaults()), extensionKey);
    expect(resolved.forKey("ctrl+alt+y")?.extensionPath).toBe("/b.ts");
    expect(resolved.diagnostics).toHaveLength(2);
    expect(resolved.diagnostics[1]!.message).toContain("from /c.ts");
  });
});
