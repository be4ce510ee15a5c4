/**
 * What the editing actions do to the buffer: `tui.editor.*` actions to `EditorState` commands.
 * Which keys trigger them is `keybindings.ts`'s business (Readline/Emacs keys by default).
 */
import type { EditorState } from "./editor-state.ts";
import type { KeyAction } from "./keybindings.ts";

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

/** The editing actions and the buffer command each runs. */
const EDIT_ACTIONS: Readonly<Partial<Record<KeyAction, EditCommand>>> = {
  "tui.editor.cursorLeft": "left",
  "tui.editor.cursorRight": "right",
  "tui.editor.cursorWordLeft": "wordLeft",
  "tui.editor.cursorWordRight": "wordRight",
  "tui.editor.cursorLineStart": "lineStart",
  "tui.editor.cursorLineEnd": "lineEnd",
  "tui.editor.cursorUp": "up",
  "tui.editor.cursorDown": "down",
  "tui.editor.deleteCharBackward": "backspace",
  "tui.editor.deleteCharForward": "deleteForward",
  "tui.editor.deleteWordBackward": "deleteWordBack",
  "tui.editor.deleteWordForward": "deleteWordForward",
  "tui.editor.deleteToLineStart": "killToLineStart",
  "tui.editor.deleteToLineEnd": "killToLineEnd",
  "tui.editor.yank": "yank",
};

/** Runs the buffer command of an editing action; false for actions that are not editing. */
export function runEditAction(state: EditorState, action: KeyAction): boolean {
  const command = EDIT_ACTIONS[action];
  if (!command) return false;
  state[command]();
  return true;
}
