import { describe, expect, test } from "bun:test";
import { holdsLongArray, stringifyInPieces } from "../../src/util/json-pieces.ts";
import { seeded } from "../faults/figures.ts";

function pieces(value: unknown): { text: string | undefined; count: number } {
  const out: string[] = [];
  const ok = stringifyInPieces(value, (piece) => out.push(piece));
  return { text: ok ? out.join("") : undefined, count: out.length };
}

const STRINGS = ["", "plain", 'quote " and \\ backslash', "line\nbreak\ttab", "é ü 中文 🐷", "\u2028\u2029", "\u0000\u001f", "lone \ud800 surrogate"];

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 5 ? 8 : 13));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor(next() * 2000) - 1000;
    case 3:
      return [next() * 1e6, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e21][Math.floor(next() * 5)];
    case 4:
    case 5:
      return STRINGS[Math.floor(next() * STRINGS.length)];
    case 6:
      return undefined;
    case 7:
      return [() => 1, Symbol("s"), new Date(Math.floor(next() * 1e12))][Math.floor(next() * 3)];
    case 8:
    case 9: {
      // Sometimes long enough to be walked element by element (near the top only, with
      // elements that are leaves or small: the sizes multiply otherwise).
      const long = depth < 3 && next() < 0.3;
      const length = long ? 256 + Math.floor(next() * 300) : Math.floor(next() * 6);
      const array = Array.from({ length }, () => randomValue(next, long ? 6 : depth + 1));
      if (next() < 0.05) delete array[0];
      return array;
    }
    case 10:
    case 11: {
      const object: Record<string, unknown> = next() < 0.1 ? Object.create(null) : {};
      const keys = Math.floor(next() * 6);
      for (let k = 0; k < keys; k++) {
        const key = [`k${k}`, String(k * 7), "é\"key", "10", "2", ""][Math.floor(next() * 6)]!;
        object[key] = randomValue(next, depth + 1);
      }
      return object;
    }
    default: {
      const replaced = next() < 0.5 ? { replaced: true } : undefined;
      return { toJSON: () => replaced, hidden: 1 };
    }
  }
}

describe("stringifyInPieces", () => {
  test("its pieces, joined, are JSON.stringify's text, for any value (2,000 generated)", () => {
    const next = seeded(20261207);
    for (let i = 0; i < 2000; i++) {
      const value = { data: { messages: randomValue(next, 0), more: randomValue(next, 0) }, top: randomValue(next, 0) };
      expect(pieces(value).text).toBe(JSON.stringify(value));
    }
  });

  test("a long array of records is handed out in several pieces", () => {
    const messages = Array.from({ length: 5000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `message ${i} ${"x".repeat(40)}` }] }));
    const value = { type: "response", command: "get_messages", success: true, data: { messages } };
    const { text, count } = pieces(value);
    expect(text).toBe(JSON.stringify(value));
    expect(count).toBeGreaterThan(3);
  });

  test("values JSON.stringify gives no text for give none, and top-level values are stringified as they are", () => {
    expect(stringifyInPieces(undefined, () => {})).toBe(false);
    expect(stringifyInPieces(() => 1, () => {})).toBe(false);
    expect(pieces({ toJSON: () => undefined }).text).toBeUndefined();
    expect(pieces("é\n").text).toBe(JSON.stringify("é\n"));
    expect(pieces(new Date(0)).text).toBe(JSON.stringify(new Date(0)));
    const deep = { a: { b: { c: { d: { e: [1, undefined, { f: () => 1 }] } } } } };
    expect(pieces(deep).text).toBe(JSON.stringify(deep));
  });
});

describe("holdsLongArray", () => {
  test("finds a long array near the top of plain objects and arrays only", () => {
    const long = Array.from({ length: 256 }, (_, i) => i);
    expect(holdsLongArray({ data: { messages: long } })).toBe(true);
    expect(holdsLongArray([[long]])).toBe(true);
    expect(holdsLongArray({ data: { messages: long.slice(1) } })).toBe(false);
    expect(holdsLongArray({ a: { b: { c: { d: long } } } })).toBe(false);
    expect(holdsLongArray({ toJSON: () => 1, list: long })).toBe(false);
    expect(holdsLongArray("text")).toBe(false);
    expect(holdsLongArray(null)).toBe(false);
  });
});
