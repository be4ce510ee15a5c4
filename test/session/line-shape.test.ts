/** A message line's prefix, read from its bytes, says what the pattern of its key order says. */
import { expect, test } from "bun:test";
import { matchMessagePrefix, MESSAGE_PREFIX_BYTES } from "../../src/session/line-shape.ts";
import { seeded } from "../faults/figures.ts";

// The prefix as a pattern over the line's first bytes read as latin1: the reference.
const VALUE = "([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*)";
const PATTERN = new RegExp(`^\\{"type":"message","id":"${VALUE}","parentId":(?:null|"${VALUE}"),"timestamp":"${VALUE}","message":\\{"role":"${VALUE}"`);
const byPattern = (line: Uint8Array) => {
  const m = PATTERN.exec(Buffer.from(line.subarray(0, MESSAGE_PREFIX_BYTES)).toString("latin1"));
  return m ? { id: m[1]!, parentId: m[2] ?? null, timestamp: m[3]!, role: m[4]! } : undefined;
};
const bytes = (s: string) => new TextEncoder().encode(s);

const LINES = [
  '{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}',
  '{"type":"message","id":"e5f6a7b8","parentId":"a1b2c3d4","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[]}}',
  '{"type":"message","id":"x","parentId":"y","timestamp":"t","message":{"role":"someNewRole","content":[]}}',
  '{"type":"message","id":"","parentId":"","timestamp":"","message":{"role":""}}',
];

test("every prefix and its damaged copies: the same fields as the pattern, or none where it has none", () => {
  const random = seeded(0x5e_af);
  let matched = 0;
  let refused = 0;
  for (let n = 0; n < 20_000; n++) {
    const line = bytes(LINES[n % LINES.length]!);
    if (n >= LINES.length) {
      const at = Math.floor(random() * Math.min(line.length, 120));
      line[at] = Math.floor(random() * 256);
    }
    const expected = byPattern(line);
    expect(matchMessagePrefix(line, 0, line.length)).toEqual(expected);
    if (expected) matched++;
    else refused++;
  }
  expect(matched).toBeGreaterThan(1000);
  expect(refused).toBeGreaterThan(1000);
});

test("a prefix that does not end within its first bytes is not taken, as the pattern does not take it", () => {
  const long = bytes(`{"type":"message","id":"${"i".repeat(MESSAGE_PREFIX_BYTES)}","parentId":null,"timestamp":"t","message":{"role":"user"}}`);
  expect(byPattern(long)).toBeUndefined();
  expect(matchMessagePrefix(long, 0, long.length)).toBeUndefined();
});

test("a line inside a larger buffer; the line before's id given or not, the parent is read as it is", () => {
  const line = bytes(`xx${LINES[1]}yy`);
  const view = new Uint8Array(line.buffer, 1, line.length - 1);
  const previousId = ["a1b2", "c3d4"].join("");
  const prefix = matchMessagePrefix(view, 1, view.length - 2, previousId);
  expect(prefix).toEqual({ id: "e5f6a7b8", parentId: "a1b2c3d4", timestamp: "2026-01-01T00:00:01.000Z", role: "assistant" });
  expect(matchMessagePrefix(view, 1, view.length - 2, "a1b2c3d5")!.parentId).toBe("a1b2c3d4");
});

test("a Buffer and a plain byte array give the same prefix", () => {
  const line = bytes(LINES[1]!);
  expect(matchMessagePrefix(Buffer.from(line), 0, line.length)).toEqual(matchMessagePrefix(line, 0, line.length));
  expect(matchMessagePrefix(Buffer.from(line), 0, line.length)?.role).toBe("assistant");
});
