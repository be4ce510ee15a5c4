/**
 * Whether a JSONL line is exactly one JSON object, decided without building it: `JSON.parse`
 * would make every object and string of a 50 MB session only to throw them away. Strict
 * RFC 8259 grammar (no comments, no trailing commas, no raw control characters in strings), and
 * valid UTF-8 (`isUtf8`, native and far faster than decoding).
 */

import { isUtf8 } from "node:buffer";
import { NOT_JSON, scanJsonWasm } from "./json-check-wasm.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** 1 for the bytes that end a run of plain string bytes: a quote, a backslash, a control character. */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_STOP[c] = 1;
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** The index after the string opening at `i` (a quote), or -1 when it is not a valid string. */
function endOfString(buf: Uint8Array, i: number, end: number): number {
  let j = i + 1;
  for (;;) {
    // Most of a session's bytes are plain string bytes: passed over with one table look-up each,
    // four at a time while four are left (a loop the JIT compiles early and well).
    while (j + 4 <= end && STRING_STOP[buf[j]!] === 0 && STRING_STOP[buf[j + 1]!] === 0 && STRING_STOP[buf[j + 2]!] === 0 && STRING_STOP[buf[j + 3]!] === 0) j += 4;
    while (j < end && STRING_STOP[buf[j]!] === 0) j++;
    if (j >= end) return -1;
    const c = buf[j]!;
    if (c === QUOTE) return j + 1;
    // A control character may not stand in a string as itself.
    if (c !== BACKSLASH) return -1;
    const e = buf[j + 1];
    if (e === 0x75) {
      // \uXXXX
      if (j + 5 >= end || !isHex(buf[j + 2]!) || !isHex(buf[j + 3]!) || !isHex(buf[j + 4]!) || !isHex(buf[j + 5]!)) return -1;
      j += 6;
      continue;
    }
    // " \ / b f n r t
    if (e !== QUOTE && e !== BACKSLASH && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return -1;
    j += 2;
  }
}

/** The index after the number starting at `i`, or -1. */
function endOfNumber(buf: Uint8Array, i: number, end: number): number {
  let j = i;
  if (buf[j] === MINUS) j++;
  if (j >= end) return -1;
  if (buf[j] === 0x30) j++;
  else if (isDigit(buf[j]!)) while (j < end && isDigit(buf[j]!)) j++;
  else return -1;
  if (j < end && buf[j] === DOT) {
    j++;
    if (j >= end || !isDigit(buf[j]!)) return -1;
    while (j < end && isDigit(buf[j]!)) j++;
  }
  if (j < end && (buf[j] === 0x65 || buf[j] === 0x45)) {
    j++;
    if (j < end && (buf[j] === PLUS || buf[j] === MINUS)) j++;
    if (j >= end || !isDigit(buf[j]!)) return -1;
    while (j < end && isDigit(buf[j]!)) j++;
  }
  return j;
}

function endOfWord(buf: Uint8Array, i: number, end: number, word: string): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (buf[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

export interface ObjectLine {
  /** The line is exactly one JSON object, in valid UTF-8. */
  readonly valid: boolean;
  /** Index (in the buffer) of the opening quote of the object's last top-level key, or -1. */
  readonly lastKeyAt: number;
}

const INVALID: ObjectLine = { valid: false, lastKeyAt: -1 };

/**
 * Whether `buf[start, end)` (a JSONL line) is one JSON object in valid UTF-8, and where its last
 * top-level key starts. `knownUtf8`: the bytes were found valid UTF-8 already (lines.ts checks a
 * whole read at once).
 */
export function checkObjectLine(buf: Uint8Array, start: number, end: number, knownUtf8 = false): ObjectLine {
  let first = start;
  while (first < end && isSpace(buf[first]!)) first++;
  if (buf[first] !== OPEN_BRACE || !(knownUtf8 || isUtf8(buf.subarray(start, end)))) return INVALID;
  const lastKeyAt = scanJsonWasm(buf, start, end) ?? scanJson(buf, start, end);
  return lastKeyAt === NOT_JSON ? INVALID : { valid: true, lastKeyAt };
}

/**
 * NOT_JSON, or the index of the last top-level key's opening quote (-1 when there is none): the
 * scanner used where the WebAssembly one cannot decide (json-check-wasm.ts), with the same verdicts.
 */
export function scanJson(buf: Uint8Array, start: number, end: number): number {
  let lastKeyAt = -1;
  // What may come next: a value, or (inside an object) a key, or a separator.
  const stack: number[] = [];
  let i = start;
  let expectValue = true;
  // In an object, the next string is a key (then a colon) rather than a value.
  let expectKey = false;
  // Right after `{`: `}` may close it empty (after a comma it may not).
  let freshObject = false;
  let done = false;
  while (i < end) {
    const c = buf[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (done) return NOT_JSON;
    if (expectKey) {
      if (c === CLOSE_BRACE && freshObject) {
        stack.pop();
        i++;
        expectKey = false;
        freshObject = false;
        expectValue = false;
        if (stack.length === 0) done = true;
        continue;
      }
      freshObject = false;
      if (c !== QUOTE) return NOT_JSON;
      if (stack.length === 1) lastKeyAt = i;
      i = endOfString(buf, i, end);
      if (i < 0) return NOT_JSON;
      while (i < end && isSpace(buf[i]!)) i++;
      if (buf[i] !== COLON) return NOT_JSON;
      i++;
      expectKey = false;
      expectValue = true;
      continue;
    }
    if (expectValue) {
      if (c === OPEN_BRACE) {
        stack.push(OPEN_BRACE);
        expectKey = true;
        freshObject = true;
        expectValue = false;
        i++;
        continue;
      }
      if (c === OPEN_BRACKET) {
        stack.push(OPEN_BRACKET);
        i++;
        // [] : an empty array.
        let k = i;
        while (k < end && isSpace(buf[k]!)) k++;
        if (buf[k] === CLOSE_BRACKET) {
          stack.pop();
          i = k + 1;
          expectValue = false;
          if (stack.length === 0) done = true;
        }
        continue;
      }
      let next: number;
      if (c === QUOTE) next = endOfString(buf, i, end);
      else if (c === MINUS || isDigit(c)) next = endOfNumber(buf, i, end);
      else if (c === 0x74) next = endOfWord(buf, i, end, "true");
      else if (c === 0x66) next = endOfWord(buf, i, end, "false");
      else if (c === 0x6e) next = endOfWord(buf, i, end, "null");
      else return NOT_JSON;
      if (next < 0) return NOT_JSON;
      i = next;
      expectValue = false;
      if (stack.length === 0) done = true;
      continue;
    }
    // After a value: a comma or the end of the container.
    const top = stack[stack.length - 1];
    if (c === COMMA && top !== undefined) {
      i++;
      if (top === OPEN_BRACE) expectKey = true;
      else expectValue = true;
      continue;
    }
    if ((c === CLOSE_BRACE && top === OPEN_BRACE) || (c === CLOSE_BRACKET && top === OPEN_BRACKET)) {
      stack.pop();
      i++;
      if (stack.length === 0) done = true;
      continue;
    }
    return NOT_JSON;
  }
  return done ? lastKeyAt : NOT_JSON;
}
