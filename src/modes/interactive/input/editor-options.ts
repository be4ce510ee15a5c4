/** What the interactive prompt is built with: its terminal, its keys, and the callbacks through which the caller decides. */
import type { CompletionProvider } from "./completion.ts";
import type { PromptHistory } from "./history.ts";
import type { KeyAction, KeyBindings } from "./keybindings.ts";
import type { KeyPress } from "./keys.ts";
import type { TerminalOutput } from "./render.ts";

export type SubmitKind = "enter" | "alt-enter";

/** The parts of `process.stdin` the editor uses. */
export interface TerminalInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "end", listener: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** The parts of `process.stdout` the editor uses. */
export interface TerminalOutputStream extends TerminalOutput {
  readonly isTTY?: boolean;
  on?(event: "resize", listener: () => void): unknown;
  on?(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
  off?(event: "resize", listener: () => void): unknown;
}

export interface InputEditorOptions {
  input?: TerminalInput;
  output?: TerminalOutputStream;
  history?: PromptHistory;
  completion?: CompletionProvider;
  /** Asked after every edit, without Tab: a list it answers opens at once (slash command names). */
  completionAsTyped?: CompletionProvider;
  /** Asked after every edit when `completionAsTyped` has nothing: its list opens at once and acts as Tab's (`@` file mentions). */
  listsAsTyped?: CompletionProvider;
  /** Force plain mode (no raw input, no prompt drawing). */
  plain?: boolean;
  /** Colours of the prompt marker and completion list; default on for a TTY unless NO_COLOR. */
  colors?: boolean;
  /** Ask the terminal for unambiguous keys (kitty protocol, xterm modifyOtherKeys) so Shift+Enter is seen. */
  keyboardProtocol?: boolean;
  escapeTimeoutMs?: number;
  /** Least time between two writes to the terminal while output keeps coming (default 0: each change at once); see PromptRenderer. */
  frameMs?: number;
  /** Which key runs which action (default: the built-in keys). */
  keybindings?: KeyBindings;
  /** Rows of the completion list shown at once (setting `autocompleteMaxVisible`). */
  menuRows?: number;
  /** Two Ctrl+C within this many ms exit. */
  doubleCtrlCMs?: number;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  /** Runs the external editor (tests replace it). */
  externalEditor?: (text: string, env: NodeJS.ProcessEnv) => Promise<string | undefined>;

  /** A non-blank submission; the buffer is already cleared and the text recorded in history. */
  onSubmit?: (text: string, kind: SubmitKind) => void;
  /** Escape with no completion list open. */
  onEscape?: () => void;
  /**
   * Asked first for every key press the editor would act on (completion list keys aside):
   * true when the caller took it (an extension shortcut), and the editor does nothing more.
   */
  interceptKey?: (key: KeyPress) => boolean;
  /** Keys the editor does not handle itself, with the action bound to them (the app's actions: model, thinking, dequeue…). */
  onKey?: (key: KeyPress, action: KeyAction | undefined) => void;
  /**
   * Ctrl+C, before the buffer is cleared: stops what is running and answers true, or answers
   * false when nothing runs. After a stop the buffer is kept, and the next Ctrl+C (no other key
   * between) quits when the buffer is empty or it comes within `stoppedQuitMs`.
   */
  onInterrupt?: () => boolean;
  /** After a stop, a next Ctrl+C this soon quits even with text in the buffer. */
  stoppedQuitMs?: number;
  /** First Ctrl+C: the buffer was cleared. */
  onClear?: () => void;
  /** Second Ctrl+C in a row, Ctrl+D on an empty buffer, or end of input in plain mode. */
  onExit?: () => void;
  /**
   * The terminal went away (its window closed, the ssh connection dropped): end of input in raw
   * mode, or a write that fails with EIO. `onExit` when not given.
   */
  onHangup?: () => void;
}
