/**
 * The WebAssembly JSON check (src/session/json-check.wasm): built from its source as committed,
 * used, and of the same verdict as the TypeScript scanner and JSON.parse, including at the
 * edges of its 64-byte blocks, on lines longer than the memory it keeps, and past its stack;
 * and its reading of a message line's prefix, the same as line-shape.ts's.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildJsonCheckWasm, JSON_CHECK_WASM } from "../../scripts/wasm/build.ts";
import { checkObjectLine, scanJson } from "../../src/session/json-check.ts";
import { emptySpans, messageLineWasm, NOT_JSON, scanJsonWasm } from "../../src/session/json-check-wasm.ts";
import { matchMessagePrefix, readMessageLine } from "../../src/session/line-shape.ts";
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

  test("every byte after a backslash, at offsets across a block edge: escaped as JSON.parse says", () => {
    let valid = 0;
    for (let byte = 0; byte < 256; byte++) {
      for (const before of [0, 14, 15, 61, 62, 63, 64, 70]) {
        const line = Uint8Array.from([...encoder.encode(`{"k":"${"y".repeat(before)}\\`), byte, ...encoder.encode('z"}')]);
        const buf = new Uint8Array(line.length + 80).fill(0x5c);
        buf.set(line);
        const ok = byte < 0x80 && parsesAsObject(new TextDecoder().decode(line));
        if (ok) valid++;
        expect({ byte, before, wasm: scanJsonWasm(buf, 0, line.length) }).toEqual({ byte, before, wasm: ok ? 1 : NOT_JSON });
      }
    }
    // " \ / b f n r t
    expect(valid).toBe(8 * 8);
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

/** readMessageLine's answer for `text`, a message line whose last key is `message`. */
function messageLine(text: string, prefix: { id: string; parentId: string | null; timestamp: string; role: string }) {
  const lastKeyAt = text.indexOf('"message":');
  return { ...prefix, lastKeyAt, valueFrom: lastKeyAt + '"message":'.length, valueTo: text.trimEnd().length - 1 };
}

describe("json-check.wasm: messageLine", () => {
  /** The TypeScript answer: the prefix matchMessagePrefix reads, if the line is also one JSON object. */
  function tsAnswer(buf: Uint8Array, start: number, end: number) {
    const prefix = matchMessagePrefix(buf, start, end);
    const lastKeyAt = scanJson(buf, start, end);
    return prefix && lastKeyAt !== NOT_JSON ? { ...prefix, lastKeyAt } : "parse";
  }

  /** The module's answer in the same shape (its spans read as text, as readMessageLine reads them). */
  function wasmAnswer(buf: Uint8Array, start: number, end: number) {
    const spans = emptySpans();
    const found = messageLineWasm(buf, start, end, spans);
    if (found !== "spans") return found;
    const text = (from: number, to: number) => new TextDecoder("latin1").decode(buf.subarray(from, to));
    return {
      id: text(spans.idFrom, spans.idTo),
      parentId: spans.parentFrom < 0 ? null : text(spans.parentFrom, spans.parentTo),
      timestamp: text(spans.timestampFrom, spans.timestampTo),
      role: text(spans.roleFrom, spans.roleTo),
      lastKeyAt: spans.lastKeyAt,
    };
  }

  test("20,000 seeded message lines, whole and damaged in and after the prefix: the same answer as matchMessagePrefix and the TypeScript check", () => {
    const random = seeded(0x6d5e);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const damage = ['"', "\\", "\x01", " ", "é", ",", "x", "}", "null", "nul", ":"];
    let messages = 0;
    let parsed = 0;
    let disagreements = 0;
    for (let n = 0; n < 20_000; n++) {
      const id = Math.floor(random() * 0xffffffff).toString(16);
      const parent = random() < 0.2 ? "null" : JSON.stringify(random() < 0.1 ? "p".repeat(Math.floor(random() * 300)) : `${id}p`);
      const role = pick(["user", "assistant", "toolResult", "custom", "someRole"]);
      const content = "text ".repeat(Math.floor(random() * 40)) + pick(["", "\\n", '\\"', "\\u00e9"]);
      let text = `{"type":"message","id":"${id}","parentId":${parent},"timestamp":"2026-08-24T19:04:48.580Z","message":{"role":"${role}","content":"${content}"}}`;
      if (random() < 0.4) {
        const chars = [...text];
        const at = random() < 0.7 ? Math.floor(random() * Math.min(chars.length, 120)) : Math.floor(random() * chars.length);
        chars.splice(at, random() < 0.5 ? 1 : 0, pick(damage));
        text = chars.join("");
      }
      const line = encoder.encode(text);
      const pad = Math.floor(random() * 70);
      const buf = new Uint8Array(pad + line.length + 80).fill(0x22);
      buf.set(line, pad);
      const ts = tsAnswer(buf, pad, pad + line.length);
      const wasm = wasmAnswer(buf, pad, pad + line.length);
      if (ts === "parse") parsed++;
      else messages++;
      if (JSON.stringify(ts) !== JSON.stringify(wasm)) disagreements++;
    }
    expect(messages).toBeGreaterThan(10_000);
    expect(parsed).toBeGreaterThan(3_000);
    expect(disagreements).toBe(0);
  });

  test("a message line that grows the module's memory, at the edge of a page and well past it, then a short one: the same answers", () => {
    const prefix = '{"type":"message","id":"m1","parentId":null,"timestamp":"t","message":{"role":"user","content":"';
    const suffix = '"}}';
    // 65,536 bytes are the module's first page of room for a line; 64 more are read past its end.
    const lengths = [65_472, 65_473, 65_536 - 64 + 1, 100_000, 2_000_000];
    let checked = 0;
    for (const length of [...lengths, 300]) {
      const filler = "ab\\n".repeat(Math.ceil(length / 5)).slice(0, length - prefix.length - suffix.length);
      const text = `${prefix}${filler.endsWith("\\") ? `${filler.slice(0, -1)}x` : filler}${suffix}`;
      const line = encoder.encode(text);
      const ts = tsAnswer(line, 0, line.length);
      expect(ts).not.toBe("parse");
      expect(wasmAnswer(line, 0, line.length)).toEqual(ts);
      expect(readMessageLine(line, 0, line.length, true)).toEqual(messageLine(text, { id: "m1", parentId: null, timestamp: "t", role: "user" }));
      checked++;
    }
    expect(checked).toBe(lengths.length + 1);
  });

  test("a message line nesting deeper than the module's stack is decided by the TypeScript readers, the same way", () => {
    const deep = `{"type":"message","id":"d","parentId":"c","timestamp":"t","message":{"role":"user","content":${"[".repeat(70_000)}${"]".repeat(70_000)}}}`;
    const line = encoder.encode(deep);
    expect(messageLineWasm(line, 0, line.length, emptySpans())).toBeUndefined();
    expect(readMessageLine(line, 0, line.length, true)).toEqual(messageLine(deep, { id: "d", parentId: "c", timestamp: "t", role: "user" }));
    const broken = encoder.encode(deep.replace("]]}}", "]}}"));
    expect(readMessageLine(broken, 0, broken.length, true)).toBeUndefined();
  });

  test("readMessageLine: the prefix's texts and the last key, and the lines it leaves to be parsed", () => {
    const text = '{"type":"message","id":"b2","parentId":"a1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[]}}';
    const line = encoder.encode(text);
    const read = readMessageLine(line, 0, line.length, true, "a1");
    expect(read).toEqual(messageLine(text, { id: "b2", parentId: "a1", timestamp: "2026-01-01T00:00:00.000Z", role: "assistant" }));
    // The message value: from after its key to before the entry's closing brace (spaces after it aside).
    expect(text.slice(read!.valueFrom, read!.valueTo)).toBe('{"role":"assistant","content":[]}');
    const spaced = encoder.encode(`${text} \r`);
    const again = readMessageLine(spaced, 0, spaced.length, true);
    expect([again!.valueFrom, again!.valueTo]).toEqual([read!.valueFrom, read!.valueTo]);
    // A line whose last key is another: no value range, the line is still taken.
    const later = text.replace('"message":{"role":"assistant","content":[]}}', '"message":{"role":"assistant","content":[]},"extra":1}');
    const laterBytes = encoder.encode(later);
    expect(readMessageLine(laterBytes, 0, laterBytes.length, true)).toMatchObject({ id: "b2", lastKeyAt: later.indexOf('"extra"'), valueFrom: -1, valueTo: -1 });
    for (const other of [text.replace('"role"', '"rôle"'), text.slice(0, -1), '{"type":"label","id":"x","parentId":null}', '{"type":"model_change","id":"x","parentId":null}', '{"type":"me', text.replace('"message","id"', '"messagE","id"')]) {
      const bytes = encoder.encode(other);
      expect(readMessageLine(bytes, 0, bytes.length, true)).toBeUndefined();
    }
    const badUtf8 = Uint8Array.from([...line.subarray(0, -4), 0xff, ...line.subarray(-4)]);
    expect(readMessageLine(badUtf8, 0, badUtf8.length, false)).toBeUndefined();
  });
});
