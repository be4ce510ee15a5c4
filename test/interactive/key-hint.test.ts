/** The key hint under the start-up header, as a pure function of the bindings in force. */
import { describe, expect, test } from "bun:test";
import { KeyBindings, resolveKeybindings } from "../../src/modes/interactive/input/keybindings.ts";
import { keyHintItems, keyHintLines } from "../../src/modes/interactive/key-hint.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";

const plain = loadTheme("dark", [], false).theme;
const hint = (bindings: KeyBindings) => keyHintItems(bindings).map(({ key, words }) => `${key} ${words}`);

describe("the key hint", () => {
  test("names the default keys, Windows' follow-up key where Windows Terminal takes Alt+Enter", () => {
    expect(hint(KeyBindings.defaults("linux"))).toEqual(["Enter send", "Alt+Enter queue", "Escape stop", "/ commands", "@ files", "Ctrl+C twice quit"]);
    expect(hint(KeyBindings.defaults("win32"))).toContain("Ctrl+Q queue");
  });

  test("follows keybindings.json: a moved key is named, an unbound action left out, Ctrl+D named when Ctrl+C no longer quits", () => {
    const { bindings } = resolveKeybindings({ "tui.input.submit": "ctrl+s", "app.message.followUp": [], "app.clear": [] }, "keybindings.json", "linux");
    expect(hint(bindings)).toEqual(["Ctrl+S send", "Escape stop", "/ commands", "@ files", "Ctrl+D quit"]);
  });

  test("one line when it fits, otherwise broken between items", () => {
    const bindings = KeyBindings.defaults("linux");
    expect(keyHintLines(bindings, 100, plain)).toEqual(["Enter send · Alt+Enter queue · Escape stop · / commands · @ files · Ctrl+C twice quit"]);
    expect(keyHintLines(bindings, 40, plain)).toEqual(["Enter send · Alt+Enter queue", "Escape stop · / commands · @ files", "Ctrl+C twice quit"]);
    // Narrower than an item: each item on its own line, whole.
    expect(keyHintLines(bindings, 10, plain)).toHaveLength(6);
  });
});
