/**
 * The WebAssembly JSON check (src/session/json-check.wasm): built from its source as committed,
 * used, and of the same verdict as the TypeScript scanner and JSON.parse, including at the
 * edges of its 64-byte blocks, on lines longer than the memory it keeps, and past its stack.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildJsonCheckWasm, JSON_CHECK_WASM } from "../../scripts/wasm/build.ts";
import { checkObjectLine, scanJson } from "../../src/session/json-check.ts";
import { NOT_JSON, scanJsonWasm } from "../../src/session/json-check-wasm.ts";
import { seeded } from "../faults/figures.ts";
import { tempDir } from "../helpers/tmp.ts";

const encoder = new TextEncoder();

function parsesAsObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Both scanners' answers for `text`, placed at `pad` bytes into a larger buffer (as lines are). */
function verdicts(text: string, pad = 0): { wasm: number | undefined; ts: number } {
  const line = encoder.encode(text);
  const buf = new Uint8Array(pad + line.length + 80).fill(0x78);
  buf.set(line, pad);
  return { wasm: scanJsonWasm(buf, pad, pad + line.length), ts: scanJson(buf, pad, pad + line.length) };
}

describe("json-check.wasm", () => {
  test("is what wasm/json-check.ts compiles to", () => {
    const dir = tempDir("wasm-build");
    const out = join(dir, "json-check.wasm");
    buildJsonCheckWasm(out);
    expect(Buffer.compare(readFileSync(out), readFileSync(JSON_CHECK_WASM))).toBe(0);
  });

  test("decides ordinary lines (the module loads and answers here)", () => {
    const text = '{"type":"message","message":{"role":"user","content":"a\\nb"}}';
    expect(verdicts(text)).toEqual({ wasm: 18, ts: 18 });
    expect(verdicts('{"a":1,}')).toEqual({ wasm: NOT_JSON, ts: NOT_JSON });
    expect(verdicts("{}")).toEqual({ wasm: -1, ts: -1 });
  });

  test("backslash runs, escaped quotes and control characters at every offset around the block edges", () => {
    let cases = 0;
    for (let before = 0; before < 140; before++) {
      for (const middle of ["\\\\", "\\\\\\\\", '\\"', '\\\\\\"', "\\n", "\\u00e9", "\\u00g9", "\\", '\\\\"', "\x01", "\x1f", "\t", "\x7f", "é", '"', "\\q"]) {
        for (const after of ["", "z", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]) {
          const text = `{"k":"${"y".repeat(before)}${middle}${after}"}`;
          const { wasm, ts } = verdicts(text, before % 7);
          const expected = parsesAsObject(text) ? 1 + (before % 7) : NOT_JSON;
          expect({ text, wasm, ts }).toEqual({ text, wasm: expected, ts: expected });
          cases++;
        }
      }
    }
    expect(cases).toBe(140 * 16 * 3);
  });

  test("20,000 seeded generated and damaged lines: the same verdict and key from both scanners, and JSON.parse's verdict", () => {
    const random = seeded(0x3a5f);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const pieces = ["\\", "\\\\", '\\"', '"', "\\n", "\\u00e9", "\\u12", "a", " ", "\t", "\x01", "{", "}", "[", "]", ",", ":", "1", "-0.5e+3", "true", "false", "null", "é", "💡", "\\/"];
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
      if (kind === 0) return Math.floor(random() * 1000) - 500;
      if (kind === 1) return pick([true, false, null, 0.25, -1e21]);
      if (kind === 2) return "x".repeat(Math.floor(random() * 130)) + "\\".repeat(Math.floor(random() * 3)) + '\n"'.repeat(Math.floor(random() * 3));
      if (kind === 3) return pick(pieces).repeat(Math.floor(random() * 40));
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}${"\\".repeat(Math.floor(random() * 2))}`, value(depth + 1)]));
    };
    let valid = 0;
    let invalid = 0;
    let disagreements = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = JSON.stringify(Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i) => [`key${i}`, value(0)])));
      if (random() < 0.5) {
        const chars = [...text];
        for (let m = 1 + Math.floor(random() * 3); m > 0; m--) chars.splice(Math.floor(random() * (chars.length + 1)), random() < 0.5 ? 1 : 0, pick(pieces));
        text = chars.join("");
      }
      const pad = Math.floor(random() * 70);
      const { wasm, ts } = verdicts(text, pad);
      const ok = parsesAsObject(text);
      if (ok) valid++;
      else invalid++;
      if (wasm !== ts || (ts !== NOT_JSON) !== ok) disagreements++;
    }
    expect(valid).toBeGreaterThan(5000);
    expect(invalid).toBeGreaterThan(5000);
    expect(disagreements).toBe(0);
  });

  test("a line longer than the memory the module keeps is checked, and the next line still is", () => {
    const long = `{"image":"${"QUJD".repeat(3_000_000)}","k":[1,2]}`;
    expect(verdicts(long)).toEqual({ wasm: 12_000_012, ts: 12_000_012 });
    expect(verdicts(`${long.slice(0, -2)}`)).toEqual({ wasm: NOT_JSON, ts: NOT_JSON });
    expect(verdicts('{"a":"b"}')).toEqual({ wasm: 1, ts: 1 });
  });

  test("nesting deeper than the module's stack is left to the TypeScript scanner", () => {
    const deep = `{"a":${"[".repeat(70_000)}${"]".repeat(70_000)}}`;
    expect(verdicts(deep)).toEqual({ wasm: undefined, ts: 1 });
    const line = encoder.encode(deep);
    expect(checkObjectLine(line, 0, line.length)).toEqual({ valid: true, lastKeyAt: 1 });
    const broken = encoder.encode(`{"a":${"[".repeat(70_000)}${"]".repeat(69_999)}}`);
    expect(checkObjectLine(broken, 0, broken.length).valid).toBe(false);
  });
});
