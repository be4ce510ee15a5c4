/**
 * Raw terminal input decoded into key events. Bytes arrive in arbitrary chunks (a multi-byte
 * character or an escape sequence may be split), so the decoder keeps what it cannot decode yet.
 * A lone ESC is ambiguous — the Escape key, or the start of an Alt/escape sequence whose rest is
 * on its way — so it is only reported as Escape once `escapeTimeoutMs` passed without more input;
 * the caller schedules `flush()` for `pendingDeadline()`. The clock is injectable for tests.
 */
import { stripAnsi } from "../../../util/width.ts";

export interface TextEvent {
  kind: "text";
  text: string;
}

/** A bracketed paste, delivered whole with its newlines (as "\n"). */
export interface PasteEvent {
  kind: "paste";
  text: string;
}

export interface KeyPress {
  kind: "key";
  /**
   * "enter", "tab", "escape", "backspace", "delete", "insert", "up", "down", "left", "right",
   * "home", "end", "pageup", "pagedown", "space", "f1"…"f12", a lowercase letter or other
   * character (with ctrl/alt), or "unknown" for sequences the decoder does not know.
   */
  name: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  /** Modifiers then name, for matching bindings: "ctrl+c", "alt+enter", "shift+tab", "ctrl+alt+x". */
  id: string;
  /** The characters the terminal sent. */
  sequence: string;
}

export type KeyEvent = TextEvent | PasteEvent | KeyPress;

export interface KeyDecoderOptions {
  escapeTimeoutMs?: number;
  now?: () => number;
}

const ESC = "\x1b";
const PASTE_END = "\x1b[201~";

export function keyPress(name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}, sequence = ""): KeyPress {
  const ctrl = mods.ctrl ?? false;
  const alt = mods.alt ?? false;
  const shift = mods.shift ?? false;
  const id = `${ctrl ? "ctrl+" : ""}${alt ? "alt+" : ""}${shift ? "shift+" : ""}${name}`;
  return { kind: "key", name, ctrl, alt, shift, id, sequence };
}

/**
 * Pasted text with "\n" line ends (terminals paste "\r"), without escape sequences and other
 * control characters (copied terminal output carries colour codes the buffer cannot show).
 */
function normalizePaste(text: string): string {
  return stripAnsi(text.replace(/\r\n?/g, "\n")).replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

function isText(code: number): boolean {
  return code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0x9f);
}

/** A single C0 control character or DEL, outside any escape sequence. */
function controlKey(ch: string, mods: { alt?: boolean } = {}, sequence = ch): KeyPress {
  const code = ch.charCodeAt(0);
  const alt = mods.alt ?? false;
  if (ch === "\r") return keyPress("enter", { alt }, sequence);
  if (ch === "\t") return keyPress("tab", { alt }, sequence);
  // DEL is what Backspace sends nowadays; ^H is Backspace on a few older setups.
  if (ch === "\x7f" || ch === "\b") return keyPress("backspace", { alt }, sequence);
  if (code === 0) return keyPress("space", { ctrl: true, alt }, sequence);
  if (code >= 1 && code <= 26) return keyPress(String.fromCharCode(code + 96), { ctrl: true, alt }, sequence);
  const symbol = { 0x1c: "\\", 0x1d: "]", 0x1e: "^", 0x1f: "_" }[code];
  return keyPress(symbol ?? "unknown", { ctrl: symbol !== undefined, alt }, sequence);
}

/** A character with modifiers, as CSI u and xterm's modifyOtherKeys report it (`code` is a code point). */
function keyFromCode(code: number, mods: Modifiers, sequence: string): KeyEvent {
  const named: Record<number, string> = { 13: "enter", 9: "tab", 27: "escape", 127: "backspace", 8: "backspace", 32: "space" };
  const name = named[code];
  if (name) {
    if (name === "space" && !mods.ctrl && !mods.alt) return { kind: "text", text: " " };
    return keyPress(name, mods, sequence);
  }
  const ch = String.fromCodePoint(code);
  if (!mods.ctrl && !mods.alt) return { kind: "text", text: mods.shift ? ch.toUpperCase() : ch };
  const lower = ch.toLowerCase();
  return keyPress(lower, { ...mods, shift: mods.shift || lower !== ch }, sequence);
}

interface Modifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** The xterm modifier parameter: 1 + shift(1) + alt(2) + ctrl(4) + meta(8); meta counts as alt. */
function modifiers(param: string | undefined): Modifiers {
  const value = Math.max(0, (Number.parseInt(param ?? "1", 10) || 1) - 1);
  return { shift: (value & 1) !== 0, alt: (value & 2) !== 0 || (value & 8) !== 0, ctrl: (value & 4) !== 0 };
}

const LETTER_KEYS: Record<string, string> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", P: "f1", Q: "f2", R: "f3", S: "f4" };
const TILDE_KEYS: Record<string, string> = {
  "1": "home", "2": "insert", "3": "delete", "4": "end", "5": "pageup", "6": "pagedown", "7": "home", "8": "end",
  "11": "f1", "12": "f2", "13": "f3", "14": "f4", "15": "f5", "17": "f6", "18": "f7", "19": "f8", "20": "f9", "21": "f10", "23": "f11", "24": "f12",
};

type Parsed = { event: KeyEvent | "paste-start" | undefined; end: number };

/** A CSI sequence `ESC [ params final` (the caller found the final byte). */
function csiEvent(params: string, final: string, sequence: string): KeyEvent | "paste-start" | undefined {
  // Terminal replies and mouse reports (private markers) are not keys.
  if (/^[<=>?]/.test(params)) return keyPress("unknown", {}, sequence);
  const parts = params.split(";").map((part) => part.split(":")[0] ?? "");
  const letter = LETTER_KEYS[final];
  if (letter) return keyPress(letter, modifiers(parts[1]), sequence);
  if (final === "Z") return keyPress("tab", { shift: true }, sequence);
  if (final === "~") {
    if (parts[0] === "200") return "paste-start";
    if (parts[0] === "201") return undefined; // a stray paste end
    if (parts[0] === "27") return keyFromCode(Number(parts[2]), modifiers(parts[1]), sequence);
    const name = TILDE_KEYS[parts[0] ?? ""];
    return keyPress(name ?? "unknown", modifiers(parts[1]), sequence);
  }
  if (final === "u") return keyFromCode(Number(parts[0]), modifiers(parts[1]), sequence);
  return keyPress("unknown", {}, sequence);
}

/** The escape sequence at `s[i]` (an ESC), or undefined when it is not complete yet. */
function parseEscape(s: string, i: number): Parsed | undefined {
  if (i + 1 >= s.length) return undefined;
  const next = s[i + 1] as string;
  if (next === "[") {
    let j = i + 2;
    while (j < s.length && /[0-?]/.test(s[j] as string)) j++;
    while (j < s.length && /[ -/]/.test(s[j] as string)) j++;
    if (j >= s.length) return undefined;
    const final = s[j] as string;
    const sequence = s.slice(i, j + 1);
    if (!/[@-~]/.test(final)) return { event: keyPress("unknown", {}, s.slice(i, j)), end: j };
    return { event: csiEvent(s.slice(i + 2, j), final, sequence), end: j + 1 };
  }
  if (next === "O") {
    if (i + 2 >= s.length) return undefined;
    const final = s[i + 2] as string;
    const sequence = s.slice(i, i + 3);
    const name = final === "M" ? "enter" : LETTER_KEYS[final];
    return { event: keyPress(name ?? "unknown", {}, sequence), end: i + 3 };
  }
  if (next === ESC) {
    // ESC ESC [A and the like: Alt plus the sequence that follows (how some terminals send Alt+arrows).
    const inner = parseEscape(s, i + 1);
    if (!inner) return undefined;
    const event = inner.event;
    if (event && typeof event !== "string" && event.kind === "key") {
      return { event: keyPress(event.name, { ...event, alt: true }, s.slice(i, inner.end)), end: inner.end };
    }
    return { event: keyPress("escape", {}, ESC), end: i + 1 };
  }
  const code = s.codePointAt(i + 1) ?? 0;
  const ch = String.fromCodePoint(code);
  const end = i + 1 + ch.length;
  if (!isText(code)) return { event: controlKey(ch, { alt: true }, s.slice(i, end)), end };
  if (ch === " ") return { event: keyPress("space", { alt: true }, s.slice(i, end)), end };
  const lower = ch.toLowerCase();
  return { event: keyPress(lower, { alt: true, shift: lower !== ch }, s.slice(i, end)), end };
}

/** What a sequence still incomplete when its time is up stands for. */
function resolveIncomplete(pending: string): KeyEvent[] {
  if (pending === ESC) return [keyPress("escape", {}, ESC)];
  if (pending === ESC + ESC) return [keyPress("escape", {}, ESC), keyPress("escape", {}, ESC)];
  if (pending === `${ESC}[`) return [keyPress("[", { alt: true }, pending)];
  if (pending === `${ESC}O`) return [keyPress("o", { alt: true, shift: true }, pending)];
  return [keyPress("unknown", {}, pending)];
}

export class KeyDecoder {
  private readonly utf8 = new TextDecoder("utf-8");
  private readonly escapeTimeoutMs: number;
  private readonly now: () => number;
  /** Decoded characters not yet turned into events (an incomplete escape sequence). */
  private pending = "";
  private pendingSince = 0;
  /** The paste collected so far while inside a bracketed paste. */
  private paste: string | undefined;

  constructor(options: KeyDecoderOptions = {}) {
    this.escapeTimeoutMs = options.escapeTimeoutMs ?? 40;
    this.now = options.now ?? Date.now;
  }

  /** The events completed by `chunk` (raw bytes, or already decoded text). */
  feed(chunk: Uint8Array | string): KeyEvent[] {
    const events: KeyEvent[] = [];
    // Input arriving after the deadline does not continue the sequence (the timer was late).
    if (this.paste === undefined && this.pending && this.now() >= this.pendingSince + this.escapeTimeoutMs) {
      events.push(...resolveIncomplete(this.pending));
      this.pending = "";
    }
    const text = typeof chunk === "string" ? chunk : this.utf8.decode(chunk, { stream: true });
    const hadPending = this.pending !== "";
    this.pending += text;
    this.drain(events);
    if (this.pending && !hadPending) this.pendingSince = this.now();
    return events;
  }

  /** When `flush()` should be called to resolve a waiting ESC, or undefined when nothing waits. */
  pendingDeadline(): number | undefined {
    if (this.paste !== undefined || !this.pending) return undefined;
    return this.pendingSince + this.escapeTimeoutMs;
  }

  /** Resolves a waiting sequence whose deadline passed (or any, with `force`). */
  flush(force = false): KeyEvent[] {
    const deadline = this.pendingDeadline();
    if (deadline === undefined || (!force && this.now() < deadline)) return [];
    const events = resolveIncomplete(this.pending);
    this.pending = "";
    return events;
  }

  private drain(events: KeyEvent[]): void {
    const s = this.pending;
    let i = 0;
    while (i < s.length) {
      if (this.paste !== undefined) {
        const end = s.indexOf(PASTE_END, i);
        if (end === -1) {
          // Keep a possibly split end marker; everything before it is pasted text.
          let keep = Math.min(PASTE_END.length - 1, s.length - i);
          while (keep > 0 && !PASTE_END.startsWith(s.slice(s.length - keep))) keep--;
          this.paste += s.slice(i, s.length - keep);
          i = s.length - keep;
          break;
        }
        events.push({ kind: "paste", text: normalizePaste(this.paste + s.slice(i, end)) });
        this.paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const code = s.charCodeAt(i);
      if (isText(code)) {
        let j = i + 1;
        while (j < s.length && isText(s.charCodeAt(j))) j++;
        events.push({ kind: "text", text: s.slice(i, j) });
        i = j;
        continue;
      }
      if (code === 0x1b) {
        const parsed = parseEscape(s, i);
        if (!parsed) break;
        i = parsed.end;
        if (parsed.event === "paste-start") this.paste = "";
        else if (parsed.event) events.push(parsed.event);
        continue;
      }
      events.push(controlKey(s[i] as string));
      i++;
    }
    this.pending = s.slice(i);
  }
}
