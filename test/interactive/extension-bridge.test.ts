/** The interactive mode's side of extensions: commands, completion, shortcuts, lines with the prompt. */
import { describe, expect, test } from "bun:test";
import type { CommandContext } from "../../src/extensions/commands.ts";
import { createRegistries, type ModeExtensions } from "../../src/extensions/registries.ts";
import type { ExtensionUI } from "../../src/extensions/ui.ts";
import { commandArgumentProvider } from "../../src/modes/interactive/argument-completion.ts";
import { ExtensionBridge } from "../../src/modes/interactive/extension-bridge.ts";
import { KeyBindings } from "../../src/modes/interactive/input/keybindings.ts";
import { FakeHost, makeRuntime } from "./commands/fake-host.ts";

const info = (path: string) => ({ path, source: "local", scope: "user" as const, origin: "top-level" as const });

function setUp() {
  const extensions: ModeExtensions = { registries: createRegistries() };
  const calls: { args: string; ctx: CommandContext }[] = [];
  const { commands, shortcuts } = extensions.registries;
  commands.register({ name: "model", handler: async () => {} }, info("/ext/a.ts"));
  commands.register(
    {
      name: "deploy",
      description: "Ship it",
      getArgumentCompletions: (prefix) => ["staging", "production"].filter((v) => v.startsWith(prefix)).map((value) => ({ value, description: `to ${value}` })),
      handler: async (args, ctx) => void calls.push({ args, ctx }),
    },
    info("/ext/a.ts"),
  );
  commands.register({ name: "boom", handler: async () => { throw new Error("bad"); } }, info("/ext/b.ts"));
  const pressed: string[] = [];
  shortcuts.register("ctrl+alt+x", { handler: () => void pressed.push("x") }, "/ext/a.ts");
  shortcuts.register("ctrl+p", { handler: () => void pressed.push("p") }, "/ext/a.ts");
  let bound: ExtensionUI | undefined;
  extensions.bindUi = (ui) => {
    bound = ui;
  };
  const host = new FakeHost(makeRuntime({ inMemory: true }));
  const drawn: { status: readonly string[]; footer: readonly string[] } = { status: [], footer: [] };
  const bridge = new ExtensionBridge({
    extensions,
    host,
    editor: {
      setStatus: (lines) => void (drawn.status = lines),
      setFooter: (lines) => void (drawn.footer = lines),
      suspend: () => {},
      resume: () => {},
      holdOutput: () => {},
      releaseOutput: () => {},
    },
    keybindings: KeyBindings.defaults(),
    builtinNames: ["model", "help"],
    tty: true,
    writeTerminal: () => {},
  });
  return { bridge, host, calls, pressed, drawn, bound: () => bound };
}

describe("extension bridge", () => {
  test("binds its UI; lists commands by invocation name, leaving out those named like pig's own (with a warning)", () => {
    const { bridge, bound } = setUp();
    expect(bound()).toBe(bridge.ui);
    expect(bridge.names()).toEqual([{ name: "deploy", description: "Ship it" }, { name: "boom" }]);
    const warnings = bridge.startupWarnings();
    expect(warnings[0]).toContain("Extension command '/model' (/ext/a.ts) has the name of one of pig's commands");
    expect(warnings[1]).toContain("'ctrl+p' from /ext/a.ts conflicts with built-in shortcut (app.model.cycleForward)");
  });

  test("a typed command runs its handler with the arguments as typed and the mode's UI", async () => {
    const { bridge, calls, host } = setUp();
    await bridge.command("/deploy  staging ")!.run(host, "ignored");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toBe(" staging ");
    expect(calls[0]!.ctx.ui).toBe(bridge.ui);
    expect(bridge.command("/deployment")).toBeUndefined();
  });

  test("a handler that throws is an error notice naming the extension", async () => {
    const { bridge, host } = setUp();
    await bridge.command("/boom")!.run(host, "");
    expect(host.output).toEqual(["error: Extension error (/ext/b.ts, command): bad"]);
  });

  test("arguments complete from the command's own completer", async () => {
    const { bridge } = setUp();
    const provider = commandArgumentProvider(() => bridge.completing());
    expect(await provider("/deploy st", 10)).toEqual({ replaceFrom: 8, replaceTo: 10, items: [{ value: "staging", label: "staging", hint: "to staging" }] });
    expect(await provider("/deploy", 7)).toBeUndefined();
    expect(await provider("/boom x", 7)).toBeUndefined();
  });

  test("a registered key runs its shortcut; a refused one and other keys do not", () => {
    const { bridge, pressed } = setUp();
    expect(bridge.shortcut("ctrl+alt+x")).toBe(true);
    expect(bridge.shortcut("ctrl+p")).toBe(false);
    expect(bridge.shortcut("ctrl+alt+z")).toBe(false);
    expect(pressed).toEqual(["x"]);
    expect(bridge.shortcutRows()).toEqual([["ctrl+alt+x", "/ext/a.ts"]]);
  });

  test("widgets above the editor come before the event view's lines; those below and the status after the input", () => {
    const { bridge, drawn } = setUp();
    bridge.setViewStatus(["⠋ working"]);
    bridge.ui.setWidget("w", ["widget"]);
    bridge.ui.setWidget("b", ["under"], { placement: "belowEditor" });
    bridge.ui.setStatus("s", "3 files");
    expect(drawn).toEqual({ status: ["widget", "⠋ working"], footer: ["under", "3 files"] });
    bridge.setViewStatus([]);
    expect(drawn.status).toEqual(["widget"]);
  });
});
