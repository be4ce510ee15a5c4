import { describe, expect, test } from "bun:test";
import { SgrState } from "../../../src/modes/interactive/input/sgr.ts";

function styleAfter(...texts: string[]): string {
  const state = new SgrState();
  for (const text of texts) state.apply(text);
  return state.toString();
}

describe("output text style", () => {
  test("styles set and not closed are restored", () => {
    expect(styleAfter("\x1b[1mbold \x1b[31mred")).toBe("\x1b[1m\x1b[31m");
  });

  test("closing codes remove just their attribute", () => {
    expect(styleAfter("\x1b[1m\x1b[31mx\x1b[39m")).toBe("\x1b[1m");
    expect(styleAfter("\x1b[3m\x1b[4mx\x1b[23m\x1b[24m")).toBe("");
  });

  test("a reset clears everything, also at the start of a compound sequence", () => {
    expect(styleAfter("\x1b[1;31mx\x1b[0m")).toBe("");
    expect(styleAfter("\x1b[1m", "\x1b[0;32mx")).toBe("\x1b[32m");
    expect(styleAfter("\x1b[1m", "\x1b[m")).toBe("");
  });

  test("256-colour and true-colour arguments stay with their colour", () => {
    expect(styleAfter("\x1b[38;5;208;1m")).toBe("\x1b[38;5;208m\x1b[1m");
    expect(styleAfter("\x1b[48;2;10;20;30m")).toBe("\x1b[48;2;10;20;30m");
  });

  test("a later colour replaces an earlier one, so the state stays small", () => {
    expect(styleAfter("\x1b[31ma\x1b[32mb\x1b[33mc")).toBe("\x1b[33m");
  });
});
