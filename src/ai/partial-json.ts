/**
 * Best-effort parsing of JSON that is still arriving (tool-call arguments mid-stream). A small
 * recursive-descent parser that stops at the end of the text: an unfinished string keeps what it
 * has, an unfinished key or literal is dropped, open arrays and objects are closed. Text that is
 * not the start of an object gives `{}`.
 */
import { isPlainObject } from "../util/plain-object.ts";

class End extends Error {}

class PartialParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parseTop(): unknown {
    this.ws();
    return this.value();
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private value(): unknown {
    this.ws();
    if (this.i >= this.s.length) throw new End();
    const c = this.s[this.i]!;
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string().value;
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    for (const [word, val] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return val;
      }
      if (word.startsWith(this.s.slice(this.i))) throw new End();
    }
    throw new SyntaxError(`unexpected ${c}`);
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === "}") {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ",") {
        this.i++;
        continue;
      }
      const key = this.string();
      if (!key.complete) return out;
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] !== ":") throw new SyntaxError("expected :");
      this.i++;
      try {
        out[key.value] = this.value();
      } catch (error) {
        if (error instanceof End) return out;
        throw error;
      }
      if (this.partialString) {
        this.partialString = false;
        return out;
      }
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === "]") {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ",") {
        this.i++;
        continue;
      }
      try {
        out.push(this.value());
      } catch (error) {
        if (error instanceof End) return out;
        throw error;
      }
      if (this.partialString) {
        this.partialString = false;
        return out;
      }
    }
  }

  /** Set when a string value ran into the end of the text (it is kept, then parsing stops). */
  private partialString = false;

  private string(): { value: string; complete: boolean } {
    if (this.s[this.i] !== '"') throw new SyntaxError("expected string");
    const start = this.i + 1;
    let j = start;
    while (j < this.s.length) {
      const c = this.s.charCodeAt(j);
      if (c === 0x22) {
        this.i = j + 1;
        return { value: JSON.parse(this.s.slice(start - 1, j + 1)) as string, complete: true };
      }
      if (c === 0x5c) {
        // An escape cut off by the end of the text is left out.
        const width = this.s[j + 1] === "u" ? 6 : 2;
        if (j + width > this.s.length) break;
        j += width;
        continue;
      }
      j++;
    }
    this.i = this.s.length;
    this.partialString = true;
    return { value: JSON.parse(`"${this.s.slice(start, j)}"`) as string, complete: false };
  }

  private number(): number {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) throw new End();
    this.i += m[0].length;
    // A number at the very end may still grow ("12" of "123"): drop it until it is complete.
    if (this.i >= this.s.length) throw new End();
    return Number(m[0]);
  }
}

export function parsePartialJson(text: string): Record<string, unknown> {
  try {
    const complete = JSON.parse(text) as unknown;
    return isPlainObject(complete) ? complete : {};
  } catch {
    // Not complete yet: parse what there is.
  }
  return salvage(text);
}

/** What the partial parser makes of text that is not whole JSON ({} when nothing). */
function salvage(text: string): Record<string, unknown> {
  try {
    const value = new PartialParser(text).parseTop();
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * A tool call's final arguments, and whether their text was a whole JSON object (no text at all
 * counts: a call without arguments). Anything else was cut off or malformed: `value` is what
 * could be salvaged, and running the tool with it would act on half an instruction (half a
 * file's content).
 */
export function parseFinalArguments(text: string): { value: Record<string, unknown>; complete: boolean } {
  if (text.trim() === "") return { value: {}, complete: true };
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    return { value: salvage(text), complete: false };
  }
  return isPlainObject(whole) ? { value: whole, complete: true } : { value: {}, complete: false };
}
