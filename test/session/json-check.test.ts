/** The byte-level JSON check agrees with JSON.parse, on hand-made cases and on damaged lines. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkObjectLine } from "../../src/session/json-check.ts";
import { seeded } from "../faults/figures.ts";
import { FIXTURES } from "../helpers/tmp.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const parses = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** The verdict on `text` as the value of an object's key, the way message lines hold their values. */
const valid = (text: string) => {
  const line = bytes(`{"v":${text}}`);
  return checkObjectLine(line, 0, line.length).valid;
};

describe("checkObjectLine", () => {
  const cases = [
    '{}', '[]', '{"a":1}', '{"a":[1,2,{"b":null}],"c":true,"d":false}', ' { "a" : "b" } ', '"x"', '0', '-0.5e+10', '12', 'true', 'null',
    '{"a":"\\u00e9\\n\\t\\"\\\\\\/"}', '[[],{},[{}]]', '{"a":{}}', '{"a":[]}',
    '{', '}', '{"a":1,}', '[1,]', '{"a"1}', '{"a":}', '{,}', '[,1]', '{"a":1}{"b":2}', '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":1e}',
    '{"a":tru}', '{"a":nul}', '{"a":"\\q"}', '{"a":"\\u12g4"}', '{"a":"\x01"}', '{a:1}', "{'a':1}", '{"a":1 "b":2}', '[1 2]', '', '   ', '{"a":-}', '{"a":--1}', '{"a":+1}',
  ];
  test.each(cases)("%p as JSON.parse says", (text) => {
    expect(valid(text)).toBe(parses(`{"v":${text}}`));
  });

  test("a line must be one object: other values, or two objects, are not", () => {
    for (const text of ['"x"', "[1]", "1", '{"a":1}{"b":2}', '{"a":1} x']) expect(checkObjectLine(bytes(text), 0, text.length).valid).toBe(false);
    const line = bytes('  {"type":"message","message":{"role":"user"}}  ');
    expect(checkObjectLine(line, 0, line.length)).toEqual({ valid: true, lastKeyAt: 20 });
  });

  test("a quote, an escape or a control character is found at any offset in a string", () => {
    // Strings are passed over four bytes at a time: every position within and after a group of four.
    for (let at = 0; at < 11; at++) {
      const before = "x".repeat(at);
      for (const [middle, ok] of [['"', false], ["\\n", true], ["\\q", false], ["\u0001", false], ["\t", false], ["\u007f", true]] as const) {
        const text = `{"a":"${before}${middle}yz"}`;
        expect({ text, valid: checkObjectLine(bytes(text), 0, text.length).valid }).toEqual({ text, valid: ok });
        expect(parses(text)).toBe(ok);
      }
    }
  });

  test("invalid UTF-8 makes a line invalid", () => {
    const line = Uint8Array.from([...bytes('{"a":"'), 0xff, 0xfe, ...bytes('"}')]);
    expect(checkObjectLine(line, 0, line.length).valid).toBe(false);
  });

  test("20,000 seeded byte flips of fixture lines: the same verdict as JSON.parse", () => {
    const lines = readdirSync(FIXTURES)
      .filter((n) => n.endsWith(".jsonl"))
      .flatMap((n) => readFileSync(join(FIXTURES, n), "utf8").split("\n").filter(Boolean))
      .filter((l) => /^[\x00-\x7f]*$/.test(l));
    const random = seeded(0x15_0a);
    let disagreements = 0;
    let invalid = 0;
    for (let n = 0; n < 20_000; n++) {
      const line = bytes(lines[Math.floor(random() * lines.length)]!);
      const at = Math.floor(random() * line.length);
      line[at] = (line[at]! ^ (1 << Math.floor(random() * 7))) & 0x7f;
      const text = new TextDecoder().decode(line);
      if (!parses(text)) invalid++;
      if (checkObjectLine(line, 0, line.length).valid !== parses(text)) disagreements++;
    }
    expect(invalid).toBeGreaterThan(1000);
    expect(disagreements).toBe(0);
  });
});
