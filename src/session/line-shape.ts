/**
 * What a `message` line shows of itself without being parsed: its id, parent, time and role from
 * its first bytes (in the fixed key order pig and Pi write), and where its message value lies.
 *
 * Loading a large session must not parse every line: most bytes sit in message entries that
 * only matter if they are on the active branch. Such a line is taken unparsed once
 * json-check.ts has found it valid JSON; everything else is parsed in full.
 */

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
