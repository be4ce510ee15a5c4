/**
 * Growing a block's text, thinking or tool-argument JSON one streamed piece at a time, in time
 * and memory proportional to its length.
 *
 * `text += piece` is cheap in Bun's engine (JavaScriptCore) because it does not copy: it builds a
 * rope, a node that points at both halves. A rope is copied into one buffer only when a character
 * of it is read, so a block nobody reads while it streams (thinking, in print mode) keeps every
 * piece as a string of its own plus a node over it: dozens of bytes for each piece of a few
 * characters. Reading one character now and then resolves the rope into one buffer; doing it
 * when the pieces since the last time would weigh about as much as the text itself keeps the
 * overhead a constant share of the length, and the copies add up to a constant multiple of it.
 */

/** Bytes one appended piece costs while it stays a rope node (node, string header, slack). */
const PIECE_COST = 64;
/** Below this many pieces the overhead does not matter. */
const MIN_PIECES = 256;

/** Where `flatten` puts the character it reads, so that no optimiser drops the read. */
const readSink: { lastRead?: string } = {};

/** Resolves a rope into one flat string (JavaScriptCore does it on the first indexed read). */
export function flatten(text: string): string {
  readSink.lastRead = text[0];
  return text;
}

/** Appends pieces to the texts of streaming blocks, each block counted apart. */
export class TextAppender {
  private readonly pieces = new WeakMap<object, number>();

  /** `current + piece`, flattened when the pieces since the last time weigh as much as the text. */
  append(block: object, current: string, piece: string): string {
    const next = current + piece;
    const pieces = (this.pieces.get(block) ?? 0) + 1;
    if (pieces >= MIN_PIECES && pieces * PIECE_COST >= next.length) {
      this.pieces.set(block, 0);
      return flatten(next);
    }
    this.pieces.set(block, pieces);
    return next;
  }
}

/** How the live arguments of a streaming tool call are parsed: a whole JSON text in, its best reading out. */
export type PartialParse = (text: string) => Record<string, unknown>;

/**
 * The arguments of tool calls while their JSON streams in. Parsing the whole text again for
 * every piece costs the square of its length (a 512 KB argument in 100-byte pieces is 5,000
 * parses of up to 512 KB); it is parsed again only once the text has grown by an eighth since
 * the last parse (or from nothing), so the parses add up to about nine times the final length
 * while a short argument still updates with every piece. The final arguments are parsed from the
 * whole text when the call ends, never from these.
 */
export class StreamingArguments {
  private readonly parsedAt = new WeakMap<object, number>();

  constructor(private readonly parse: PartialParse) {}

  /** The arguments to show for `text` (the call's JSON so far), or undefined to keep those shown. */
  update(block: object, text: string): Record<string, unknown> | undefined {
    const parsed = this.parsedAt.get(block);
    if (parsed !== undefined && text.length < parsed + Math.max(1, parsed >> 3)) return undefined;
    this.parsedAt.set(block, text.length);
    return this.parse(text);
  }
}
