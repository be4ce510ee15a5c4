/** Output of the user's own shell commands, cleaned piece by piece as it arrives. */
import { expect, test } from "bun:test";
import { PieceSanitizer, unfinishedEscapeAt } from "../../src/agent/user-bash.ts";

const feed = (pieces: string[]): string[] => {
  const clean = new PieceSanitizer();
  return [...pieces.map((p) => clean.push(p)), clean.end()];
};

test("a colour code cut between pieces waits for its rest and leaves no fragment", () => {
  expect(feed(["\x1b[3", "1mred\x1b[0m\n"])).toEqual(["", "red\n", ""]);
  expect(feed(["plain \x1b", "[1mbold", "\x1b[0", "m done"])).toEqual(["plain ", "bold", "", " done", ""]);
});

test("a title (OSC) cut anywhere, its terminator too, is dropped whole", () => {
  expect(feed(["a\x1b]0;ti", "tle\x1b", "\\b"])).toEqual(["a", "", "b", ""]);
  expect(feed(["\x1b]8;;http://x\x07link\x1b]8;;\x07"])).toEqual(["link", ""]);
});

test("an escape never finished is cleaned at the end; one too long is not waited for", () => {
  expect(feed(["x\x1b[12"])).toEqual(["x", ""]);
  expect(unfinishedEscapeAt(`\x1b]${"a".repeat(5000)}`)).toBeUndefined();
  expect(unfinishedEscapeAt("done\x1b[0m")).toBeUndefined();
  expect(unfinishedEscapeAt("half\x1b[")).toBe(4);
});
