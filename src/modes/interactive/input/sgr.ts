/**
 * The text style (SGR) in effect at the end of printed output. The prompt is drawn between two
 * pieces of output with its style reset; when output continues — a coloured code block streamed
 * line by line, a bold word split across chunks — its style has to be put back first.
 * Styles are tracked per attribute, so closing codes (picocolors never sends a full reset) keep
 * the state small.
 */

type Attribute = "fg" | "bg" | "underlineColor" | "weight" | "italic" | "underline" | "blink" | "inverse" | "hidden" | "strike";

const SGR = /\x1b\[([0-9;:]*)m/g;

const SET: Record<number, Attribute> = { 1: "weight", 2: "weight", 3: "italic", 4: "underline", 5: "blink", 6: "blink", 7: "inverse", 8: "hidden", 9: "strike" };
const CLEAR: Record<number, Attribute> = { 22: "weight", 23: "italic", 24: "underline", 25: "blink", 27: "inverse", 28: "hidden", 29: "strike", 39: "fg", 49: "bg", 59: "underlineColor" };

export class SgrState {
  private readonly attributes = new Map<Attribute, string>();

  /** Follows the SGR sequences in `text`. */
  apply(text: string): void {
    if (!text.includes("\x1b[")) return;
    for (const match of text.matchAll(SGR)) this.applyParams(match[1] ?? "");
  }

  /** The sequence that restores the style; "" for the default style. */
  toString(): string {
    return [...this.attributes.values()].join("");
  }

  private applyParams(params: string): void {
    // Colon sub-parameters (4:3 curly underline, 38:2::r:g:b) travel with their parameter.
    const parts = params === "" ? ["0"] : params.split(";");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const code = Number.parseInt(part, 10);
      if (code === 0 || Number.isNaN(code)) {
        if (code === 0) this.attributes.clear();
        continue;
      }
      if (code === 38 || code === 48 || code === 58) {
        const attribute: Attribute = code === 38 ? "fg" : code === 48 ? "bg" : "underlineColor";
        if (part.includes(":")) {
          this.attributes.set(attribute, `\x1b[${part}m`);
          continue;
        }
        const length = parts[i + 1] === "5" ? 2 : parts[i + 1] === "2" ? 4 : 0;
        this.attributes.set(attribute, `\x1b[${parts.slice(i, i + 1 + length).join(";")}m`);
        i += length;
        continue;
      }
      const cleared = CLEAR[code];
      if (cleared) {
        this.attributes.delete(cleared);
        continue;
      }
      const set = SET[code] ?? ((code >= 30 && code <= 37) || (code >= 90 && code <= 97) ? "fg" : (code >= 40 && code <= 47) || (code >= 100 && code <= 107) ? "bg" : undefined);
      if (set) this.attributes.set(set, `\x1b[${part}m`);
    }
  }
}
