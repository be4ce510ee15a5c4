/** When a session was last written, read from the end of its file. */
import { expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { lastEntryTime, lastWrittenAt } from "../../src/session/last-written.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";

function timeOfFile(path: string): number | undefined {
  const fd = openSync(path, "r");
  try {
    return lastEntryTime(fd);
  } finally {
    closeSync(fd);
  }
}

const at = (iso: string) => Date.parse(iso);

test("the last entry's own time, whatever its type", () => {
  const path = writeSession([HEADER, msg("u1", null, user("q")), { type: "label", id: "l1", parentId: "u1", timestamp: "2026-12-01T10:00:00.000Z", targetId: "u1", label: "x" }]);
  expect(timeOfFile(path)).toBe(at("2026-12-01T10:00:00.000Z"));
});

test("a torn last line (a write cut short) is passed over for the entry before it", () => {
  const entry = { type: "session_info", id: "s1", parentId: null, timestamp: "2026-12-01T10:00:00.000Z", name: "n" };
  const path = writeSession([HEADER, entry, '{"type":"message","id":"u2","timestamp":"2027-01-01T00:'], { trailingNewline: false });
  expect(timeOfFile(path)).toBe(at("2026-12-01T10:00:00.000Z"));
});

test("a last line longer than the first read is read whole", () => {
  const long = msg("a1", "u1", { ...assistant("x".repeat(300_000)) });
  const path = writeSession([HEADER, msg("u1", null, user("q")), long]);
  expect(timeOfFile(path)).toBe(Date.parse(long.timestamp));
});

test("a file of a header alone is as old as its header; an empty one has no time", () => {
  expect(timeOfFile(writeSession([HEADER]))).toBe(at(HEADER.timestamp));
  expect(timeOfFile(writeSession([], { trailingNewline: false }))).toBeUndefined();
});

test("the later of the header and the last entry; the mtime only when neither has a time", () => {
  expect(lastWrittenAt(5, 9, 100)).toBe(9);
  // A copy: old entries under a new header.
  expect(lastWrittenAt(9, 5, 100)).toBe(9);
  expect(lastWrittenAt(undefined, 5, 100)).toBe(5);
  expect(lastWrittenAt(undefined, undefined, 100)).toBe(100);
});
