/**
 * Large pastes shown as one token in the buffer: `[pasted 120 lines]` (or `[pasted 4500
 * characters]` for a long line) stands for the text, which comes back in its place when the
 * buffer is sent. The token is edited as a whole: the cursor never stops inside it, and a
 * deletion that reaches into it removes all of it (one Backspace removes it and so the paste).
 */

/** A paste with more lines than this, or more characters, is shown as a token. */
export const PASTE_MAX_LINES = 10;
export const PASTE_MAX_CHARS = 1000;

export function isLargePaste(text: string): boolean {
  return lineCount(text) > PASTE_MAX_LINES || text.length > PASTE_MAX_CHARS;
}

/** Lines of `text`, a final line break not starting another. */
function lineCount(text: string): number {
  return text.replace(/\n$/, "").split("\n").length;
}

export class PastedBlocks {
  private readonly blocks = new Map<string, string>();

  get size(): number {
    return this.blocks.size;
  }

  /** Remembers `text` and returns the token that stands for it (numbered when the same words are taken). */
  add(text: string): string {
    const lines = lineCount(text);
    const base = lines > PASTE_MAX_LINES ? `pasted ${lines} lines` : `pasted ${text.length} characters`;
    let token = `[${base}]`;
    for (let n = 2; this.blocks.has(token); n++) token = `[${base} #${n}]`;
    this.blocks.set(token, text);
    return token;
  }

  /**
   * `text` with each token replaced by its paste (pasted text itself is not searched again). A
   * token stands for its paste once: the same words typed again elsewhere stay words.
   */
  expand(text: string): string {
    if (this.blocks.size === 0) return text;
    const pattern = new RegExp([...this.blocks.keys()].map(escapeRegExp).join("|"), "g");
    const used = new Set<string>();
    return text.replace(pattern, (token) => {
      if (used.has(token)) return token;
      used.add(token);
      return this.blocks.get(token) ?? token;
    });
  }

  /** Where tokens stand in `value` (start and end offsets), so edits treat each as one piece. */
  spans(value: string): { from: number; to: number }[] {
    const out: { from: number; to: number }[] = [];
    for (const token of this.blocks.keys()) {
      const at = value.indexOf(token);
      if (at >= 0) out.push({ from: at, to: at + token.length });
    }
    return out;
  }

  /** The length of a token that ends at `offset` of `value`, or 0. */
  tokenEndingAt(value: string, offset: number): number {
    for (const token of this.blocks.keys()) {
      if (offset >= token.length && value.startsWith(token, offset - token.length)) return token.length;
    }
    return 0;
  }

  /** The length of a token that starts at `offset` of `value`, or 0. */
  tokenStartingAt(value: string, offset: number): number {
    for (const token of this.blocks.keys()) if (value.startsWith(token, offset)) return token.length;
    return 0;
  }

  clear(): void {
    this.blocks.clear();
  }

  /** The tokens and their pastes as they are now (to show the same buffer again later). */
  snapshot(): ReadonlyMap<string, string> {
    return new Map(this.blocks);
  }

  /** Holds exactly the tokens of `blocks` (a snapshot), forgetting any others. */
  restore(blocks: ReadonlyMap<string, string>): void {
    this.blocks.clear();
    for (const [token, text] of blocks) this.blocks.set(token, text);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
