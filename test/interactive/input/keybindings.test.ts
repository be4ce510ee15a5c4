import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_KEYBINDINGS, defaultKeybindings, KeyBindings, normalizeKey, resolveKeybindings } from "../../../src/modes/interactive/input/keybindings.ts";
import { loadKeybindings } from "../../../src/modes/interactive/keybindings-file.ts";
import { tempDir } from "../../helpers/tmp.ts";

describe("normalizeKey", () => {
  test("modifiers in the decoder's order, lower case, synonyms", () => {
    expect(normalizeKey("Shift+Ctrl+P")).toEqual({ key: "ctrl+shift+p" });
    expect(normalizeKey("alt+ctrl+x")).toEqual({ key: "ctrl+alt+x" });
    expect(normalizeKey("esc")).toEqual({ key: "escape" });
    expect(normalizeKey("ctrl+return")).toEqual({ key: "ctrl+enter" });
    expect(normalizeKey("PageUp")).toEqual({ key: "pageup" });
    expect(normalizeKey("f12")).toEqual({ key: "f12" });
    expect(normalizeKey("alt+A")).toEqual({ key: "alt+shift+a" });
    expect(normalizeKey("ctrl + s")).toEqual({ key: "ctrl+s" });
    expect(normalizeKey("ctrl+space")).toEqual({ key: "ctrl+space" });
    expect(normalizeKey("ctrl++")).toEqual({ key: "ctrl++" });
    expect(normalizeKey("ctrl+]")).toEqual({ key: "ctrl+]" });
  });
  test("unknown keys and modifiers are named", () => {
    expect(normalizeKey("hyper+x")).toEqual({ error: expect.stringContaining('unknown modifier "hyper"') });
    expect(normalizeKey("ctrl+banana")).toEqual({ error: expect.stringContaining('unknown key "banana"') });
    expect(normalizeKey("super+k")).toEqual({ error: expect.stringContaining("super+") });
    expect(normalizeKey("")).toEqual({ error: expect.stringContaining("unknown key") });
    expect(normalizeKey("f13")).toEqual({ error: expect.stringContaining('unknown key "f13"') });
  });
  test("keys that are typed as text are refused", () => {
    for (const key of ["a", "+", "shift+a", "space", "shift+space", "A"]) {
      expect(normalizeKey(key)).toEqual({ error: expect.stringContaining("needs ctrl+ or alt+") });
    }
  });
});

describe("resolveKeybindings", () => {
  test("the defaults when the user says nothing", () => {
    const { bindings, warnings } = resolveKeybindings({}, "kb.json");
    expect(warnings).toEqual([]);
    for (const [action, keys] of Object.entries(DEFAULT_KEYBINDINGS)) {
      for (const key of keys) expect(bindings.actionFor(key)).toBe(action as never);
    }
  });

  test("a user binding replaces the action's defaults and shadows other defaults on its keys", () => {
    const { bindings, warnings } = resolveKeybindings({ "app.model.select": ["ctrl+o"] }, "kb.json");
    expect(warnings).toEqual([]);
    expect(bindings.keysFor("app.model.select")).toEqual(["ctrl+o"]);
    expect(bindings.actionFor("ctrl+o")).toBe("app.model.select");
    expect(bindings.actionFor("ctrl+l")).toBeUndefined();
    expect(bindings.keysFor("app.tools.expand")).toEqual([]);
  });

  test("legacy names map to the namespaced ids", () => {
    const { bindings } = resolveKeybindings({ submit: "ctrl+s", expandTools: "ctrl+e", cursorLineEnd: "end" }, "kb.json");
    expect(bindings.actionFor("ctrl+s")).toBe("tui.input.submit");
    expect(bindings.actionFor("ctrl+e")).toBe("app.tools.expand");
    expect(bindings.keysFor("tui.editor.cursorLineEnd")).toEqual(["end"]);
  });

  test("the follow-up key is Ctrl+Q on Windows and Alt+Enter elsewhere", () => {
    const on = (platform: string) => resolveKeybindings({}, "kb.json", platform).bindings;
    expect(on("win32").keysFor("app.message.followUp")).toEqual(["ctrl+q", "alt+enter"]);
    expect(on("win32").actionFor("ctrl+q")).toBe("app.message.followUp");
    expect(on("linux").keysFor("app.message.followUp")).toEqual(["alt+enter"]);
    expect(on("darwin").actionFor("ctrl+q")).toBeUndefined();
    expect(KeyBindings.defaults("win32").actionFor("ctrl+q")).toBe("app.message.followUp");
    expect(defaultKeybindings("linux")).toBe(DEFAULT_KEYBINDINGS);
  });

  test("on Windows a user binding of Ctrl+Q takes it from the follow-up; a follow-up binding replaces both keys", () => {
    const taken = resolveKeybindings({ "app.tools.expand": "ctrl+q" }, "kb.json", "win32").bindings;
    expect(taken.actionFor("ctrl+q")).toBe("app.tools.expand");
    expect(taken.keysFor("app.message.followUp")).toEqual(["alt+enter"]);
    const replaced = resolveKeybindings({ followUp: "ctrl+alt+f" }, "kb.json", "win32").bindings;
    expect(replaced.keysFor("app.message.followUp")).toEqual(["ctrl+alt+f"]);
    expect(replaced.actionFor("ctrl+q")).toBeUndefined();
  });

  test("an empty list unbinds", () => {
    const { bindings } = resolveKeybindings({ "app.exit": [] }, "kb.json");
    expect(bindings.actionFor("ctrl+d")).toBeUndefined();
  });

  test("bad entries are skipped with a warning naming the file and id; good ones still apply", () => {
    const { bindings, warnings } = resolveKeybindings(
      {
        "app.nonsense": "ctrl+x",
        "app.model.select": 5,
        "app.thinking.toggle": ["ctrl+banana", "ctrl+y"],
        "app.tools.expand": "ctrl+y",
        "tui.select.up": "ctrl+k",
        "app.session.resume": "ctrl+r",
      },
      "/home/u/.pig/agent/keybindings.json",
    );
    expect(warnings).toEqual([
      '/home/u/.pig/agent/keybindings.json: unknown action "app.nonsense"; ignored',
      '/home/u/.pig/agent/keybindings.json: "app.model.select" must be a key or a list of keys, not 5; its default keys stay',
      '/home/u/.pig/agent/keybindings.json: "app.thinking.toggle": "ctrl+banana": unknown key "banana"',
      '/home/u/.pig/agent/keybindings.json: "app.tools.expand": ctrl+y is already bound to app.thinking.toggle',
    ]);
    expect(bindings.actionFor("ctrl+l")).toBe("app.model.select");
    expect(bindings.actionFor("ctrl+y")).toBe("app.thinking.toggle");
    expect(bindings.actionFor("ctrl+k")).toBe("tui.editor.deleteToLineEnd");
  });

  test("a misspelt action id is named with the closest one", () => {
    const { warnings } = resolveKeybindings({ "app.model.selct": "ctrl+l", selectModle: "ctrl+l" }, "kb.json");
    expect(warnings).toEqual([
      'kb.json: unknown action "app.model.selct" (did you mean "app.model.select"?); ignored',
      'kb.json: unknown action "selectModle" (did you mean "selectModel"?); ignored',
    ]);
  });

  test("a file that is not an object keeps the defaults", () => {
    const { bindings, warnings } = resolveKeybindings(["enter"], "kb.json");
    expect(warnings).toEqual(["kb.json: expected an object of action ids to keys, not a list; using the default keys"]);
    expect(bindings.actionFor("enter")).toBe("tui.input.submit");
  });
});

describe("loadKeybindings", () => {
  test("no file: the defaults, no warnings", () => {
    const dir = tempDir();
    const { bindings, warnings } = loadKeybindings(dir);
    expect(warnings).toEqual([]);
    expect(bindings.keysFor("tui.input.submit")).toEqual(KeyBindings.defaults().keysFor("tui.input.submit"));
  });
  test("broken JSON: the defaults and a warning naming the file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "keybindings.json"), '{"submit": ');
    const { bindings, warnings } = loadKeybindings(dir);
    expect(warnings).toEqual([`${join(dir, "keybindings.json")}: not valid JSON: a value is expected at line 1, column 12; using the default keys`]);
    expect(bindings.actionFor("enter")).toBe("tui.input.submit");
  });
  test("comments and trailing commas are accepted, as in settings.json", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "keybindings.json"), '{\n  // previous model\n  "app.model.cycleBackward": "alt+p",\n}\n');
    const { bindings, warnings } = loadKeybindings(dir);
    expect(warnings).toEqual([]);
    expect(bindings.actionFor("alt+p")).toBe("app.model.cycleBackward");
  });
  test("a file is read and applied", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "keybindings.json"), JSON.stringify({ "app.model.cycleBackward": "alt+p" }));
    const { bindings, warnings } = loadKeybindings(dir);
    expect(warnings).toEqual([]);
    expect(bindings.actionFor("alt+p")).toBe("app.model.cycleBackward");
  });
});
