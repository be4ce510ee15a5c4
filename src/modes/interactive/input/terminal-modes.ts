/**
 * The terminal modes the editor needs while it owns the terminal, switched on and back off as a
 * unit: raw input, bracketed paste, and keys that tell Shift+Enter from Enter — xterm's
 * modifyOtherKeys, and the kitty keyboard protocol (kitty, Ghostty, WezTerm, foot, iTerm2…).
 * The kitty protocol is asked about first and only pushed once the terminal answers, because
 * elsewhere "CSI … u" can mean "restore cursor".
 */
import type { KeyPress } from "./keys.ts";

const ENABLE_PASTE = "\x1b[?2004h";
const DISABLE_PASTE = "\x1b[?2004l";
const MODIFY_OTHER_KEYS_ON = "\x1b[>4;1m";
const MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m";
const KITTY_QUERY = "\x1b[?u";
const KITTY_REPLY = /^\x1b\[\?\d*u$/;
const KITTY_PUSH = "\x1b[>1u";
const KITTY_POP = "\x1b[<u";

export interface RawModeInput {
  setRawMode?(mode: boolean): unknown;
}

export class TerminalModes {
  private kittyPushed = false;

  constructor(
    private readonly input: RawModeInput,
    private readonly output: { write(text: string): unknown },
    private readonly keyboardProtocol: boolean,
  ) {}

  enter(): void {
    this.input.setRawMode?.(true);
    this.output.write(ENABLE_PASTE + (this.keyboardProtocol ? MODIFY_OTHER_KEYS_ON + KITTY_QUERY : ""));
  }

  /** Safe to call more than once (also from an exit handler), and on a terminal that went away. */
  leave(): void {
    const keyboard = this.keyboardProtocol ? (this.kittyPushed ? KITTY_POP : "") + MODIFY_OTHER_KEYS_OFF : "";
    this.kittyPushed = false;
    this.output.write(DISABLE_PASTE + keyboard);
    try {
      this.input.setRawMode?.(false);
    } catch {
      // EIO: the terminal is gone, and with it the mode there was to restore.
    }
  }

  /** Consumes the terminal's answer to the kitty query (switching the protocol on); false for real keys. */
  handleReply(key: KeyPress): boolean {
    if (!KITTY_REPLY.test(key.sequence)) return false;
    if (!this.kittyPushed) this.output.write(KITTY_PUSH);
    this.kittyPushed = true;
    return true;
  }
}
