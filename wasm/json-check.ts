// AssemblyScript source of src/session/json-check.wasm (built by scripts/wasm/build.ts; a test
// rebuilds it and compares the bytes). Two answers about one line of a session file:
//   - check: the same verdict as scanJson in src/session/json-check.ts: whether the line is
//     exactly one JSON object (strict RFC 8259), and where its last top-level key starts. The
//     caller checks UTF-8 and the opening brace; this module checks the grammar.
//   - messageLine: the same as matchMessagePrefix in src/session/line-shape.ts (where a message
//     line's id, parent, timestamp and role lie, in the key order pig and Pi write), then check.
//
// Strings, most of a session's bytes, are taken 64 bytes at a time: SIMD compares give a bit per
// byte for quotes, backslashes and control characters, the escaped bytes follow from the
// backslashes with integer operations, and the closing quote is the first quote not escaped. A
// string full of `\n` escapes is then no slower than a plain one: there is no branch per escape.
//
// Memory layout (addresses in bytes):
//   [256, 300)      messageLine's answer: nine i32 (see PREFIX_* below)
//   [512, 65536)    the nesting stack: one byte per open container, `{` or `[`
//   [65536, ...)    the line, written there by the caller, followed by at least 64 spare bytes
//                   (the block loads may read past the line's end; those bytes are masked off)

const PREFIX: i32 = 256;
const STACK: i32 = 512;
const LINE: i32 = 65536;
const MAX_DEPTH: i32 = LINE - STACK;

/** check()'s answers besides a key's offset (>= 0) and -1 (an object without keys). */
const NOT_JSON: i32 = -2;
/** The line nests deeper than the stack holds: the caller decides with its own scanner. */
const TOO_DEEP: i32 = -3;

const QUOTE: u32 = 0x22;
const OPEN_BRACE: u32 = 0x7b;
const CLOSE_BRACE: u32 = 0x7d;
const OPEN_BRACKET: u32 = 0x5b;
const CLOSE_BRACKET: u32 = 0x5d;
const COMMA: u32 = 0x2c;
const COLON: u32 = 0x3a;
const MINUS: u32 = 0x2d;


@inline function byteAt(i: i32): u32 {
  return <u32>load<u8>(LINE + i);
}

@inline function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

@inline function isHex(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6;
}

/** A bit per byte of the 16 in `v`: set where the byte equals the one in every lane of `s`. */
@inline function equalBits(v: v128, s: v128): u64 {
  return <u64>i8x16.bitmask(i8x16.eq(v, s));
}

/** A bit per byte of the 16 in `v`: set where the byte is below 0x20 (a control character). */
@inline function controlBits(v: v128, s: v128): u64 {
  return <u64>i8x16.bitmask(i8x16.lt_u(v, s));
}

// The one-byte escapes (" \ / b f n r t) told apart with two table look-ups per byte: a bit of
// the high nibble's entry and of the low nibble's entry meet only for those eight bytes.
//   high nibble 2: " /    5: \    6: b f n    7: r t
const ESCAPE_HIGH = i8x16(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);
//   low nibble 2: " b r (bits 1, 4, 8)   4: t   6: f   0xc: \   0xe: n   0xf: /
const ESCAPE_LOW = i8x16(0, 0, 13, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1);

/** A bit per byte of the 16 in `v`: set where the byte may follow a backslash as a one-byte escape. */
@inline function oneByteEscapeBits(v: v128): u64 {
  const low = i8x16.swizzle(ESCAPE_LOW, v128.and(v, i8x16.splat(0x0f)));
  const high = i8x16.swizzle(ESCAPE_HIGH, i8x16.shr_u(v, 4));
  return <u64>i8x16.bitmask(i8x16.ne(v128.and(low, high), i8x16.splat(0)));
}

/** The index after the string whose opening quote is at `i`, or -1 when it is not a valid string. */
function endOfString(i: i32, end: i32): i32 {
  const quotes16 = i8x16.splat(0x22);
  const backslashes16 = i8x16.splat(0x5c);
  const spaces16 = i8x16.splat(0x20);
  let j = i + 1;
  // Most strings (keys, ids, short values) end within 16 bytes, before any escape: one compare
  // of 16 bytes settles those.
  if (j + 16 <= end) {
    const v = v128.load(LINE + j);
    const closing16 = <u32>i8x16.bitmask(i8x16.eq(v, quotes16));
    const stops16 = <u32>i8x16.bitmask(v128.or(i8x16.eq(v, backslashes16), i8x16.lt_u(v, spaces16)));
    if (closing16 != 0 && (stops16 & ((closing16 & (0 - closing16)) - 1)) == 0) return j + <i32>ctz(closing16) + 1;
  }
  // The block's first byte is escaped by a backslash that ended the block before.
  let escapedIn = false;
  while (j < end) {
    const a = v128.load(LINE + j);
    const b = v128.load(LINE + j + 16);
    const c = v128.load(LINE + j + 32);
    const d = v128.load(LINE + j + 48);
    let quotes = equalBits(a, quotes16) | (equalBits(b, quotes16) << 16) | (equalBits(c, quotes16) << 32) | (equalBits(d, quotes16) << 48);
    let backslashes = equalBits(a, backslashes16) | (equalBits(b, backslashes16) << 16) | (equalBits(c, backslashes16) << 32) | (equalBits(d, backslashes16) << 48);
    let controls = controlBits(a, spaces16) | (controlBits(b, spaces16) << 16) | (controlBits(c, spaces16) << 32) | (controlBits(d, spaces16) << 48);
    const left = end - j;
    if (left < 64) {
      // Past the line's end: not part of the string.
      const inLine = (<u64>1 << <u64>left) - 1;
      quotes &= inLine;
      backslashes &= inLine;
      controls &= inLine;
    }
    // A backslash that is not escaped itself escapes the byte after it.
    let escaped: u64 = 0;
    let escapers = backslashes;
    if (escapedIn) {
      escaped = 1;
      escapers &= ~(<u64>1);
    }
    escapedIn = false;
    if ((escapers & (escapers << 1)) == 0) {
      // No two backslashes side by side (the usual case): each escapes the byte after it.
      escaped |= escapers << 1;
      escapedIn = escapers >> 63 != 0;
      escapers = 0;
    }
    while (escapers != 0) {
      const at = ctz(escapers);
      escapers &= escapers - 1;
      if (at == 63) {
        escapedIn = true;
        break;
      }
      const next = <u64>1 << (at + 1);
      escaped |= next;
      escapers &= ~next;
    }
    const closing = quotes & ~escaped;
    // The bytes of the string in this block: those before the closing quote, or all of them.
    let inString: u64 = ~(<u64>0);
    if (closing != 0) inString = (closing & (0 - closing)) - 1;
    else if (left <= 64) return -1;
    if ((controls & inString) != 0) return -1;
    const escapes = escaped & inString;
    if (escapes != 0) {
      // Escapes other than the one-byte ones: \uXXXX, or none at all.
      let others = escapes & ~(oneByteEscapeBits(a) | (oneByteEscapeBits(b) << 16) | (oneByteEscapeBits(c) << 32) | (oneByteEscapeBits(d) << 48));
      while (others != 0) {
        const at = <i32>ctz(others);
        others &= others - 1;
        // (hex digits are none of the bytes the masks look for)
        if (byteAt(j + at) != 0x75 || j + at + 4 >= end || !isHex(byteAt(j + at + 1)) || !isHex(byteAt(j + at + 2)) || !isHex(byteAt(j + at + 3)) || !isHex(byteAt(j + at + 4))) return -1;
      }
    }
    if (closing != 0) return j + <i32>ctz(closing) + 1;
    j += 64;
  }
  return -1;
}

/** The index after the number starting at `i`, or -1. */
function endOfNumber(i: i32, end: i32): i32 {
  let j = i;
  if (byteAt(j) == MINUS) j++;
  if (j >= end) return -1;
  if (byteAt(j) == 0x30) j++;
  else if (isDigit(byteAt(j))) {
    while (j < end && isDigit(byteAt(j))) j++;
  } else return -1;
  if (j < end && byteAt(j) == 0x2e) {
    j++;
    if (j >= end || !isDigit(byteAt(j))) return -1;
    while (j < end && isDigit(byteAt(j))) j++;
  }
  if (j < end && (byteAt(j) == 0x65 || byteAt(j) == 0x45)) {
    j++;
    if (j < end && (byteAt(j) == 0x2b || byteAt(j) == 0x2d)) j++;
    if (j >= end || !isDigit(byteAt(j))) return -1;
    while (j < end && isDigit(byteAt(j))) j++;
  }
  return j;
}

/** The index after `true`, `false` or `null` at `i` (whose first byte is `first`), or -1. */
function endOfWord(i: i32, end: i32, first: u32): i32 {
  // The letters after the first, read as one little-endian word.
  if (first == 0x66) return i + 5 <= end && load<u32>(LINE + i + 1) == 0x65736c61 ? i + 5 : -1; // "alse"
  if (i + 4 > end) return -1;
  const word = load<u32>(LINE + i);
  if (first == 0x74) return word == 0x65757274 ? i + 4 : -1; // "true"
  return word == 0x6c6c756e ? i + 4 : -1; // "null"
}

/**
 * The verdict on the `length` bytes at LINE: the offset of the last top-level key's opening
 * quote, -1 for an object without keys, NOT_JSON, or TOO_DEEP.
 */
export function check(length: i32): i32 {
  const end = length;
  let lastKeyAt: i32 = -1;
  let depth: i32 = 0;
  let i: i32 = 0;
  let expectValue = true;
  // In an object, the next string is a key (then a colon) rather than a value.
  let expectKey = false;
  // Right after `{`: `}` may close it empty (after a comma it may not).
  let freshObject = false;
  let done = false;
  while (i < end) {
    const c = byteAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (done) return NOT_JSON;
    if (expectKey) {
      if (c == CLOSE_BRACE && freshObject) {
        depth--;
        i++;
        expectKey = false;
        freshObject = false;
        if (depth == 0) done = true;
        continue;
      }
      freshObject = false;
      if (c != QUOTE) return NOT_JSON;
      if (depth == 1) lastKeyAt = i;
      i = endOfString(i, end);
      if (i < 0) return NOT_JSON;
      while (i < end && isSpace(byteAt(i))) i++;
      if (i >= end || byteAt(i) != COLON) return NOT_JSON;
      i++;
      expectKey = false;
      expectValue = true;
      continue;
    }
    if (expectValue) {
      if (c == OPEN_BRACE || c == OPEN_BRACKET) {
        if (depth >= MAX_DEPTH) return TOO_DEEP;
        store<u8>(STACK + depth, <u8>c);
        depth++;
        i++;
        expectValue = false;
        if (c == OPEN_BRACE) {
          expectKey = true;
          freshObject = true;
          continue;
        }
        // `[`: a value next, or `]` at once (an empty array).
        let k = i;
        while (k < end && isSpace(byteAt(k))) k++;
        if (k < end && byteAt(k) == CLOSE_BRACKET) {
          depth--;
          i = k + 1;
          if (depth == 0) done = true;
        } else expectValue = true;
        continue;
      }
      let next: i32;
      if (c == QUOTE) next = endOfString(i, end);
      else if (c == MINUS || isDigit(c)) next = endOfNumber(i, end);
      else if (c == 0x74 || c == 0x66 || c == 0x6e) next = endOfWord(i, end, c);
      else return NOT_JSON;
      if (next < 0) return NOT_JSON;
      i = next;
      expectValue = false;
      if (depth == 0) done = true;
      continue;
    }
    // After a value: a comma, or the end of the container it is in.
    if (depth == 0) return NOT_JSON;
    const top = <u32>load<u8>(STACK + depth - 1);
    if (c == COMMA) {
      i++;
      if (top == OPEN_BRACE) expectKey = true;
      else expectValue = true;
      continue;
    }
    if ((c == CLOSE_BRACE && top == OPEN_BRACE) || (c == CLOSE_BRACKET && top == OPEN_BRACKET)) {
      depth--;
      i++;
      if (depth == 0) done = true;
      continue;
    }
    return NOT_JSON;
  }
  return done ? lastKeyAt : NOT_JSON;
}

// messageLine's answer at PREFIX, as i32 offsets into the line: the id, the parent (-1, -1 for
// null), the timestamp and the role, each [from, to), then check's answer.
const PREFIX_ID = 0;
const PREFIX_PARENT = 8;
const PREFIX_TIMESTAMP = 16;
const PREFIX_ROLE = 24;
const PREFIX_CHECK = 32;

/** messageLine's answers: not a message line in the usual order; or one, and check's verdict on it. */
const NOT_MESSAGE: i32 = 0;
const MESSAGE: i32 = 1;
const MESSAGE_NOT_JSON: i32 = 2;
const MESSAGE_TOO_DEEP: i32 = 3;

/** How many leading bytes the prefix must lie in (MESSAGE_PREFIX_BYTES in line-shape.ts). */
const PREFIX_BYTES: i32 = 256;

/** Whether the `n` (1 to 8) bytes at `at` are those of `word` (its low bytes, little-endian). */
@inline function bytesAre(at: i32, word: u64, n: i32): bool {
  const mask: u64 = n == 8 ? ~(<u64>0) : (<u64>1 << (<u64>n << 3)) - 1;
  return ((load<u64>(LINE + at) ^ word) & mask) == 0;
}

/** The index of the quote closing a value that starts at `at`: printable ASCII without a backslash; -1 otherwise. */
function valueEnd(at: i32, stop: i32): i32 {
  for (let j = at; j < stop; j++) {
    const c = byteAt(j);
    if (c == QUOTE) return j;
    if (c < 0x20 || c > 0x7e || c == 0x5c) return -1;
  }
  return -1;
}

/**
 * Whether the `length` bytes at LINE begin as a message line pig or Pi wrote, in the first
 * PREFIX_BYTES bytes: `{"type":"message","id":"…","parentId":"…" or null,"timestamp":"…",
 * "message":{"role":"…"`; if so, the offsets at PREFIX and check's verdict on the whole line.
 */
export function messageLine(length: i32): i32 {
  const stop = length < PREFIX_BYTES ? length : PREFIX_BYTES;
  // {"type":"message","id":"
  if (24 > stop || !bytesAre(0, 0x3a2265707974227b, 8) || !bytesAre(8, 0x6567617373656d22, 8) || !bytesAre(16, 0x223a226469222c22, 8)) return NOT_MESSAGE;
  const idEnd = valueEnd(24, stop);
  // ","parentId":
  if (idEnd < 0 || idEnd + 13 > stop || !bytesAre(idEnd, 0x6e65726170222c22, 8) || !bytesAre(idEnd + 8, 0x3a22644974, 5)) return NOT_MESSAGE;
  let at = idEnd + 13;
  let parentFrom = -1;
  let parentTo = -1;
  if (at + 4 <= stop && bytesAre(at, 0x6c6c756e, 4)) {
    // null
    at += 4;
  } else {
    if (at >= stop || byteAt(at) != QUOTE) return NOT_MESSAGE;
    const parentEnd = valueEnd(at + 1, stop);
    if (parentEnd < 0) return NOT_MESSAGE;
    parentFrom = at + 1;
    parentTo = parentEnd;
    at = parentEnd + 1;
  }
  // ,"timestamp":"
  if (at + 14 > stop || !bytesAre(at, 0x7473656d6974222c, 8) || !bytesAre(at + 8, 0x223a22706d61, 6)) return NOT_MESSAGE;
  const timestampAt = at + 14;
  const timestampEnd = valueEnd(timestampAt, stop);
  // ,"message":{"role":"
  const roleLiteral = timestampEnd + 1;
  if (timestampEnd < 0 || roleLiteral + 20 > stop || !bytesAre(roleLiteral, 0x67617373656d222c, 8) || !bytesAre(roleLiteral + 8, 0x6c6f72227b3a2265, 8) || !bytesAre(roleLiteral + 16, 0x223a2265, 4)) return NOT_MESSAGE;
  const roleAt = roleLiteral + 20;
  const roleEnd = valueEnd(roleAt, stop);
  if (roleEnd < 0) return NOT_MESSAGE;
  store<i32>(PREFIX + PREFIX_ID, 24);
  store<i32>(PREFIX + PREFIX_ID + 4, idEnd);
  store<i32>(PREFIX + PREFIX_PARENT, parentFrom);
  store<i32>(PREFIX + PREFIX_PARENT + 4, parentTo);
  store<i32>(PREFIX + PREFIX_TIMESTAMP, timestampAt);
  store<i32>(PREFIX + PREFIX_TIMESTAMP + 4, timestampEnd);
  store<i32>(PREFIX + PREFIX_ROLE, roleAt);
  store<i32>(PREFIX + PREFIX_ROLE + 4, roleEnd);
  const verdict = check(length);
  store<i32>(PREFIX + PREFIX_CHECK, verdict);
  return verdict == NOT_JSON ? MESSAGE_NOT_JSON : verdict == TOO_DEEP ? MESSAGE_TOO_DEEP : MESSAGE;
}
