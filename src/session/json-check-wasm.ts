/**
 * The grammar check of json-check.ts done by a small WebAssembly module (src/session/json-check.wasm,
 * built from wasm/json-check.ts): it reads a string 64 bytes at a time with SIMD compares, where the
 * scanner in TypeScript takes a byte at a time and branches at every escape. Opening a 50 MB
 * session checks every message line; this is most of that time.
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
/** A memory grown past this for a long line is let go after it, not kept for the rest of the run. */
const KEEP_BYTES = 8 * 1024 * 1024;

interface Checker {
  memory: WebAssembly.Memory;
  check: (length: number) => number;
  bytes: Uint8Array;
}

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
  const exports = new WebAssembly.Instance(compiled, {}).exports as { memory: WebAssembly.Memory; check: (length: number) => number };
  return { memory: exports.memory, check: exports.check, bytes: new Uint8Array(exports.memory.buffer) };
}

/**
 * NOT_JSON, or the index in `buf` of the last top-level key's opening quote (-1 for an object
 * without keys), for the line `buf[start, end)`; undefined when the module cannot decide (see
 * above). The caller has checked UTF-8.
 */
export function scanJsonWasm(buf: Uint8Array, start: number, end: number): number | undefined {
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
  }
  // A plain view: Buffer's own subarray makes a Buffer through its species, which cost more than the copy.
  wasm.bytes.set(new Uint8Array(buf.buffer, buf.byteOffset + start, length), LINE_AT);
  const answer = wasm.check(length);
  if (wasm.bytes.length > KEEP_BYTES) checker = undefined;
  if (answer === TOO_DEEP) return undefined;
  if (answer === NOT_JSON || answer === NO_KEYS) return answer;
  return start + answer;
}
