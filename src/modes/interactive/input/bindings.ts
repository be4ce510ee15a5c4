/**
 * Which keys edit the buffer, and how: key ids (see `KeyPress.id`) to `EditorState` commands.
 * Readline/Emacs conventions, plus the word motions terminals send for Ctrl/Alt+arrows.
 * Keys not listed here (and not handled by the editor itself: Enter, Tab, Esc, Ctrl+C/D/G)
 * go to the caller.
 */
import type { EditorState } from "./editor-state.ts";

export type EditCommand =
  | "left"
  | "right"
  | "wordLeft"
  | "wordRight"
  | "lineStart"
  | "lineEnd"
  | "up"
  | "down"
  | "backspace"
  | "deleteForward"
  | "deleteWordBack"
  | "deleteWordForward"
  | "killToLineStart"
  | "killToLineEnd"
  | "yank";

export const EDIT_BINDINGS: Readonly<Record<string, EditCommand>> = {
  left: "left",
  "ctrl+b": "left",
  right: "right",
  "ctrl+f": "right",
  "ctrl+left": "wordLeft",
  "alt+left": "wordLeft",
  "alt+b": "wordLeft",
  "ctrl+right": "wordRight",
  "alt+right": "wordRight",
  "alt+f": "wordRight",
  home: "lineStart",
  "ctrl+a": "lineStart",
  end: "lineEnd",
  "ctrl+e": "lineEnd",
  up: "up",
  down: "down",
  backspace: "backspace",
  "shift+backspace": "backspace",
  delete: "deleteForward",
  "ctrl+w": "deleteWordBack",
  "alt+backspace": "deleteWordBack",
  "ctrl+backspace": "deleteWordBack",
  "alt+d": "deleteWordForward",
  "ctrl+delete": "deleteWordForward",
  "ctrl+u": "killToLineStart",
  "ctrl+k": "killToLineEnd",
  "ctrl+y": "yank",
};

/** Runs the command bound to `id`; false when nothing is bound. */
export function runEditBinding(state: EditorState, id: string): boolean {
  if (!Object.hasOwn(EDIT_BINDINGS, id)) return false;
  state[EDIT_BINDINGS[id] as EditCommand]();
  return true;
}
