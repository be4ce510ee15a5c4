/** The interactive prompt's keys as the shortcut registry checks extension shortcuts against them. */
import type { BuiltinKeys, KeyNormalizer } from "../../extensions/shortcuts.ts";
import { DEFAULT_KEYBINDINGS, normalizeKey, type KeyAction, type KeyBindings } from "./input/keybindings.ts";

export function builtinKeys(bindings: KeyBindings): BuiltinKeys {
  return {
    actionFor: (key) => bindings.actionFor(key),
    keysFor: (action) => (Object.hasOwn(DEFAULT_KEYBINDINGS, action) ? bindings.keysFor(action as KeyAction) : []),
  };
}

/** Extension keys are case-insensitive upstream (`Ctrl+K` is `ctrl+k`, not Ctrl+Shift+K). */
export const extensionKey: KeyNormalizer = (key) => normalizeKey(key.toLowerCase());
