/**
 * What a `message` line shows of itself without being parsed: its id, parent, time and role from
 * its first bytes (in the fixed key order pig and Pi write), and where its message value lies.
 *
 * Loading a large session must not parse every line: most bytes sit in message entries that
 * only matter if they are on the active branch. Such a line is taken unparsed once
 * json-check.ts has found it valid JSON; everything else is parsed in full.
 */

import { isUtf8 } from "node:buffer";
import { scanJson } from "./json-check.ts";
import { emptySpans, messageLineWasm, NOT_JSON, type MessageLineSpans } from "./json-check-wasm.ts";
import type { Mutable } from "../util/mutable.ts";

/** Where a message line's prefix values lie (each `[from, to)`; the parent's -1 for null). */
type PrefixSpans = Omit<MessageLineSpans, "lastKeyAt">;

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

// The fixed parts of the prefix, and where the values between them end: a value is printable
// ASCII without quote or backslash (anything else falls back to a full parse), so its bytes are
// its text.
const TYPE_AND_ID = bytesOf('{"type":"message","id":"');
const PARENT = bytesOf('","parentId":');
const NULL = bytesOf("null");
const TIMESTAMP = bytesOf(',"timestamp":"');
const ROLE = bytesOf(',"message":{"role":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * The roles messages have, as shared strings (20,000 messages need not make 20,000 copies of
 * "assistant"), by their length: a role is told by comparing it with the one or two of its length.
 */
const ROLES_BY_LENGTH: { role: string; bytes: Uint8Array }[][] = [];
for (const role of ["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"]) {
  (ROLES_BY_LENGTH[role.length] ??= []).push({ role, bytes: bytesOf(role) });
}

/** How many leading bytes `matchMessagePrefix` looks at. */
export const MESSAGE_PREFIX_BYTES = 256;

/** Whether `literal` is at `at` (and ends by `end`). */
function literalAt(buf: Uint8Array, at: number, end: number, literal: Uint8Array): boolean {
  if (at + literal.length > end) return false;
  for (let k = 0; k < literal.length; k++) if (buf[at + k] !== literal[k]) return false;
  return true;
}

/** The index of the quote closing the value that starts at `at`, or -1 when a byte is not a plain value's. */
function valueEnd(buf: Uint8Array, at: number, end: number): number {
  for (let j = at; j < end; j++) {
    const c = buf[j]!;
    if (c === QUOTE) return j;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

/** The bytes `[from, to)` as text (they are ASCII); `same` when they spell it (a parent is usually the line before). */
function text(buf: Uint8Array, from: number, to: number, same?: string): string {
  if (same !== undefined && same.length === to - from) {
    let k = 0;
    while (k < same.length && same.charCodeAt(k) === buf[from + k]) k++;
    if (k === same.length) return same;
  }
  // The scanner's buffer is a Buffer: its own toString makes no view object first (that cost more than the text).
  if (buf instanceof Buffer) return buf.toString("latin1", from, to);
  return Buffer.from(buf.buffer, buf.byteOffset + from, to - from).toString("latin1");
}

function roleText(buf: Uint8Array, from: number, to: number): string {
  const candidates = ROLES_BY_LENGTH[to - from];
  if (candidates !== undefined) {
    for (let i = 0; i < candidates.length; i++) if (literalAt(buf, from, to, candidates[i]!.bytes)) return candidates[i]!.role;
  }
  return text(buf, from, to);
}

/**
 * The prefix of the line `buf[start, end)`, read from its first `MESSAGE_PREFIX_BYTES` bytes
 * without making a string of them; undefined when the line does not start that way. `previousId`
 * (the id of the line before) is handed back as the parent when it is the same text. The texts
 * are written into `into`, which is returned.
 */
export function matchMessagePrefix(
  buf: Uint8Array,
  start: number,
  end: number,
  previousId?: string,
  into: Mutable<MessagePrefix> = { id: "", parentId: null, timestamp: "", role: "" },
): MessagePrefix | undefined {
  const stop = Math.min(end, start + MESSAGE_PREFIX_BYTES);
  if (!literalAt(buf, start, stop, TYPE_AND_ID)) return undefined;
  const idAt = start + TYPE_AND_ID.length;
  const idEnd = valueEnd(buf, idAt, stop);
  if (idEnd < 0 || !literalAt(buf, idEnd, stop, PARENT)) return undefined;
  let at = idEnd + PARENT.length;
  let parentFrom = -1;
  let parentTo = -1;
  if (literalAt(buf, at, stop, NULL)) at += NULL.length;
  else {
    if (buf[at] !== QUOTE) return undefined;
    const parentEnd = valueEnd(buf, at + 1, stop);
    if (parentEnd < 0) return undefined;
    parentFrom = at + 1;
    parentTo = parentEnd;
    at = parentEnd + 1;
  }
  if (!literalAt(buf, at, stop, TIMESTAMP)) return undefined;
  const timestampAt = at + TIMESTAMP.length;
  const timestampEnd = valueEnd(buf, timestampAt, stop);
  if (timestampEnd < 0 || !literalAt(buf, timestampEnd + 1, stop, ROLE)) return undefined;
  const roleAt = timestampEnd + 1 + ROLE.length;
  const roleEnd = valueEnd(buf, roleAt, stop);
  if (roleEnd < 0) return undefined;
  setPrefix(buf, { idFrom: idAt, idTo: idEnd, parentFrom, parentTo, timestampFrom: timestampAt, timestampTo: timestampEnd, roleFrom: roleAt, roleTo: roleEnd }, previousId, into);
  return into;
}

/** The prefix whose values lie at `spans` (found here or by the WebAssembly module), as texts written into `into`. */
function setPrefix(buf: Uint8Array, spans: PrefixSpans, previousId: string | undefined, into: Mutable<MessagePrefix>): void {
  into.id = text(buf, spans.idFrom, spans.idTo);
  into.parentId = spans.parentFrom < 0 ? null : text(buf, spans.parentFrom, spans.parentTo, previousId);
  into.timestamp = text(buf, spans.timestampFrom, spans.timestampTo);
  into.role = roleText(buf, spans.roleFrom, spans.roleTo);
}

/**
 * A message line taken without being parsed: what its prefix says, where its last top-level key
 * starts, and where its `message` value lies. `readMessageLine` fills one in place, so that a
 * load makes one for all its lines, not one (and the objects inside) per line.
 */
export interface MessageLine {
  id: string;
  parentId: string | null;
  timestamp: string;
  role: string;
  /** The last top-level key's opening quote (-1: none). */
  lastKeyAt: number;
  /** The `message` value's bytes, `[valueFrom, valueTo)`, when it is the line's last top-level key; both -1 otherwise. */
  valueFrom: number;
  valueTo: number;
}

/** A `MessageLine` for `readMessageLine` to fill in. */
export function emptyMessageLine(): MessageLine {
  return { id: "", parentId: null, timestamp: "", role: "", lastKeyAt: -1, valueFrom: -1, valueTo: -1 };
}

// The module's spans of the line being read (one set for every line; read before the next).
const spans = emptySpans();

/**
 * The line `buf[start, end)` as a message line that need not be parsed: it begins as
 * `matchMessagePrefix` reads and is one JSON object in valid UTF-8 (`utf8`: known valid
 * already). Its fields are written into `into`, which is returned; undefined when the line must
 * be parsed. Both are decided in one pass of the WebAssembly module where it can
 * (json-check-wasm.ts), else here, with the same answers.
 */
export function readMessageLine(
  buf: Uint8Array,
  start: number,
  end: number,
  utf8: boolean | undefined,
  previousId?: string,
  into: MessageLine = emptyMessageLine(),
): MessageLine | undefined {
  // Only a line that begins `{"type":"me…` can be one: any other (a large custom entry, a
  // compaction) is not copied into the module to be told so.
  if (end - start < TYPE_AND_ID.length || buf[start] !== TYPE_AND_ID[0] || buf[start + 9] !== TYPE_AND_ID[9] || buf[start + 10] !== TYPE_AND_ID[10]) return undefined;
  if (!utf8 && !isUtf8(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start))) return undefined;
  const found = messageLineWasm(buf, start, end, spans);
  if (found === "parse") return undefined;
  if (found === undefined) {
    // No module, or the line nests deeper than its stack: the TypeScript readers decide (the
    // prefix matched, so the line opens with its brace and is known valid UTF-8).
    if (!matchMessagePrefix(buf, start, end, previousId, into)) return undefined;
    const lastKeyAt = scanJson(buf, start, end);
    if (lastKeyAt === NOT_JSON) return undefined;
    into.lastKeyAt = lastKeyAt;
  } else {
    setPrefix(buf, spans, previousId, into);
    into.lastKeyAt = spans.lastKeyAt;
  }
  setMessageValue(buf, start, end, into);
  return into;
}

const MESSAGE_KEY = bytesOf('"message":');

/** Where the `message` value lies, when it is the line's last top-level key (at `line.lastKeyAt`). */
function setMessageValue(buf: Uint8Array, start: number, end: number, line: MessageLine): void {
  line.valueFrom = -1;
  line.valueTo = -1;
  const at = line.lastKeyAt;
  if (at < 0 || !literalAt(buf, at, end, MESSAGE_KEY)) return;
  let last = end;
  while (last > start && isSpace(buf[last - 1]!)) last--;
  line.valueFrom = at + MESSAGE_KEY.length;
  line.valueTo = last - 1;
}
