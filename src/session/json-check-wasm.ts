/**
 * The grammar check of json-check.ts, and the message-line prefix of line-shape.ts with it, done
 * by a small WebAssembly module (src/session/json-check.wasm, built from wasm/json-check.ts): it
 * reads a string 64 bytes at a time with SIMD compares, where the scanner in TypeScript takes a
 * byte at a time and branches at every escape. Opening a 50 MB session checks every message
 * line; this is most of that time.
 *
 * The module is made the first time a line is checked. Where WebAssembly or its SIMD instructions
 * are not available, or a line nests deeper than the module's stack, the caller's own scanner
 * decides instead: the verdicts are the same (test/session/json-check-wasm.test.ts).
 */
import { readFileSync } from "node:fs";
// Embedded in the binary as a file, like the model catalogue; 2 KB.
import wasmFile from "./json-check.wasm" with { type: "file" };

/** A line that is not one JSON object (the answer of both scanners). */
export const NOT_JSON = -2;

// The module's memory layout and answers (wasm/json-check.ts).
const LINE_AT = 65536;
/** The module reads whole 64-byte blocks: up to 63 bytes past a line's end are read, then ignored. */
const SPARE = 64;
const NO_KEYS = -1;
const TOO_DEEP = -3;
const PAGE = 65536;
const copyBytes = Buffer.prototype.copy;
/** A memory grown past this for a long line is let go after it, not kept for the rest of the run. */
const KEEP_BYTES = 8 * 1024 * 1024;

interface Checker {
  memory: WebAssembly.Memory;
  check: (length: number) => number;
  messageLine: (length: number) => number;
  bytes: Uint8Array;
  /** messageLine's answer: nine i32 at byte 256 (wasm/json-check.ts). */
  answer: Int32Array;
}

// messageLine's answers (wasm/json-check.ts).
const NOT_MESSAGE = 0;
const MESSAGE_NOT_JSON = 2;
const MESSAGE_TOO_DEEP = 3;
const ANSWER_AT = 256;

let compiled: WebAssembly.Module | null | undefined;
let checker: Checker | undefined;

function makeChecker(): Checker | undefined {
  try {
    compiled ??= new WebAssembly.Module(readFileSync(wasmFile));
  } catch {
    // No WebAssembly, or no SIMD on this machine: the TypeScript scanner does the work.
    compiled = null;
  }
  if (compiled === null) return undefined;
  const exports = new WebAssembly.Instance(compiled, {}).exports as { memory: WebAssembly.Memory; check: (length: number) => number; messageLine: (length: number) => number };
  return { memory: exports.memory, check: exports.check, messageLine: exports.messageLine, bytes: new Uint8Array(exports.memory.buffer), answer: new Int32Array(exports.memory.buffer, ANSWER_AT, 9) };
}

/** The module, with `buf[start, end)` written where it reads a line; undefined when it cannot take it. */
function withLine(buf: Uint8Array, start: number, end: number): Checker | undefined {
  const wasm = (checker ??= makeChecker());
  if (wasm === undefined) return undefined;
  const length = end - start;
  const needed = LINE_AT + length + SPARE;
  if (needed > wasm.bytes.length) {
    try {
      wasm.memory.grow(Math.ceil((needed - wasm.bytes.length) / PAGE));
    } catch {
      return undefined;
    }
    wasm.bytes = new Uint8Array(wasm.memory.buffer);
    wasm.answer = new Int32Array(wasm.memory.buffer, ANSWER_AT, 9);
  }
  // Buffer's copy makes no view object (a view per line cost more than the copy itself).
  copyBytes.call(buf, wasm.bytes, LINE_AT, start, end);
  return wasm;
}

/** A memory grown for a long line is let go (the next line makes the module again). */
function letGoIfLarge(wasm: Checker): void {
  if (wasm.bytes.length > KEEP_BYTES) checker = undefined;
}

/**
 * NOT_JSON, or the index in `buf` of the last top-level key's opening quote (-1 for an object
 * without keys), for the line `buf[start, end)`; undefined when the module cannot decide (see
 * above). The caller has checked UTF-8.
 */
export function scanJsonWasm(buf: Uint8Array, start: number, end: number): number | undefined {
  const wasm = withLine(buf, start, end);
  if (wasm === undefined) return undefined;
  const answer = wasm.check(end - start);
  letGoIfLarge(wasm);
  if (answer === TOO_DEEP) return undefined;
  if (answer === NOT_JSON || answer === NO_KEYS) return answer;
  return start + answer;
}

/**
 * Where a message line's prefix values lie in the caller's buffer (each `[from, to)`; the
 * parent's -1 for null), and its last top-level key: filled in by `messageLineWasm`, so that one
 * object serves every line of a load.
 */
export interface MessageLineSpans {
  idFrom: number;
  idTo: number;
  parentFrom: number;
  parentTo: number;
  timestampFrom: number;
  timestampTo: number;
  roleFrom: number;
  roleTo: number;
  /** The last top-level key's opening quote (-1: none). */
  lastKeyAt: number;
}

/**
 * matchMessagePrefix (line-shape.ts) and then the JSON check, in one pass of the module over
 * `buf[start, end)` (valid UTF-8, checked by the caller): "spans" for a message line that is one
 * JSON object, its spans written into `into`; "parse" for a line that is not one in the usual
 * order, or not valid JSON (the caller parses it); undefined when the module cannot decide (see
 * above). Nothing is allocated: a 20,000-line session is read without 20,000 answers to collect.
 */
export function messageLineWasm(buf: Uint8Array, start: number, end: number, into: MessageLineSpans): "spans" | "parse" | undefined {
  const wasm = withLine(buf, start, end);
  if (wasm === undefined) return undefined;
  const kind = wasm.messageLine(end - start);
  letGoIfLarge(wasm);
  if (kind === NOT_MESSAGE || kind === MESSAGE_NOT_JSON) return "parse";
  if (kind === MESSAGE_TOO_DEEP) return undefined;
  const a = wasm.answer;
  into.idFrom = start + a[0]!;
  into.idTo = start + a[1]!;
  into.parentFrom = a[2]! < 0 ? -1 : start + a[2]!;
  into.parentTo = a[3]! < 0 ? -1 : start + a[3]!;
  into.timestampFrom = start + a[4]!;
  into.timestampTo = start + a[5]!;
  into.roleFrom = start + a[6]!;
  into.roleTo = start + a[7]!;
  into.lastKeyAt = a[8]! < 0 ? -1 : start + a[8]!;
  return "spans";
}

/** Spans to be filled in by `messageLineWasm`. */
export function emptySpans(): MessageLineSpans {
  return { idFrom: -1, idTo: -1, parentFrom: -1, parentTo: -1, timestampFrom: -1, timestampTo: -1, roleFrom: -1, roleTo: -1, lastKeyAt: -1 };
}
