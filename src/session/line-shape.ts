/**
 * A structural look at one JSONL line without parsing it.
 *
 * Loading a large session must not parse every line: most bytes sit in message entries that
 * only matter if they are on the active branch. A line is accepted unparsed when its shape is
 * complete (a single object, every string closed, brackets balanced) and it starts with the
 * fixed key order pig and Pi write; everything else is parsed in full.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

export interface LineShape {
  /** The line is one complete JSON object as far as strings and brackets tell. */
  readonly complete: boolean;
  /** Index (in the buffer) of the opening quote of the object's last top-level key, or -1. */
  readonly lastKeyAt: number;
}

const INCOMPLETE: LineShape = { complete: false, lastKeyAt: -1 };

/** Checks `buf[start, end)` for one balanced object. Whitespace around it is allowed. */
export function lineShape(buf: Uint8Array, start: number, end: number): LineShape {
  let i = start;
  while (i < end && isSpace(buf[i]!)) i++;
  let last = end;
  while (last > i && isSpace(buf[last - 1]!)) last--;
  if (i >= last || buf[i] !== OPEN_BRACE || buf[last - 1] !== CLOSE_BRACE) return INCOMPLETE;
  let depth = 0;
  let lastKeyAt = -1;
  let expectKey = false;
  while (i < last) {
    const c = buf[i]!;
    if (c === QUOTE) {
      if (depth === 1 && expectKey) {
        lastKeyAt = i;
        expectKey = false;
      }
      const close = closingQuote(buf, i + 1, last);
      if (close < 0) return INCOMPLETE;
      i = close + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      // The outer object closing before the end means two values on one line.
      if (depth < 0 || (depth === 0 && i !== last - 1)) return INCOMPLETE;
    } else if (c === COMMA && depth === 1) {
      expectKey = true;
    }
    i++;
  }
  return depth === 0 ? { complete: true, lastKeyAt } : INCOMPLETE;
}

function closingQuote(buf: Uint8Array, from: number, end: number): number {
  let j = from;
  for (;;) {
    j = buf.indexOf(QUOTE, j);
    if (j < 0 || j >= end) return -1;
    let backslashes = 0;
    for (let k = j - 1; k >= from && buf[k] === BACKSLASH; k--) backslashes++;
    if ((backslashes & 1) === 0) return j;
    j++;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** The fields of a `message` line in the key order pig and Pi write, read from its first bytes. */
export interface MessagePrefix {
  readonly id: string;
  readonly parentId: string | null;
  readonly timestamp: string;
  readonly role: string;
}

// Values are printable ASCII without quote or backslash: the head is decoded as latin1 (cheap),
// and anything else falls back to a full parse.
const VALUE = '([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*)';
const MESSAGE_PREFIX = new RegExp(
  `^\\{"type":"message","id":"${VALUE}","parentId":(?:null|"${VALUE}"),"timestamp":"${VALUE}","message":\\{"role":"${VALUE}"`,
);

/** How many leading bytes `matchMessagePrefix` needs to see. */
export const MESSAGE_PREFIX_BYTES = 256;

export function matchMessagePrefix(head: string): MessagePrefix | undefined {
  const m = MESSAGE_PREFIX.exec(head);
  if (!m) return undefined;
  return { id: m[1]!, parentId: m[2] ?? null, timestamp: m[3]!, role: m[4]! };
}

const MESSAGE_KEY = '"message":';

/** The byte range of the `message` value when it is the line's last top-level key. */
export function messageValueRange(
  buf: Uint8Array,
  start: number,
  end: number,
  lastKeyAt: number,
): { start: number; end: number } | undefined {
  if (lastKeyAt < 0 || lastKeyAt + MESSAGE_KEY.length > end) return undefined;
  for (let k = 0; k < MESSAGE_KEY.length; k++) {
    if (buf[lastKeyAt + k] !== MESSAGE_KEY.charCodeAt(k)) return undefined;
  }
  let last = end;
  while (last > start && isSpace(buf[last - 1]!)) last--;
  return { start: lastKeyAt + MESSAGE_KEY.length, end: last - 1 };
}
