/** The double-Escape rule, apart from any terminal. */
import { describe, expect, test } from "bun:test";
import { DOUBLE_ESCAPE_MS, escapeTap } from "../../src/modes/interactive/double-escape.ts";

describe("escapeTap", () => {
  test("two Escapes close together on an empty prompt fire once", () => {
    const first = escapeTap({}, 1000, true);
    expect(first.fire).toBe(false);
    const second = escapeTap(first.state, 1000 + DOUBLE_ESCAPE_MS, true);
    expect(second.fire).toBe(true);
    // A third Escape starts over rather than firing again.
    expect(escapeTap(second.state, 1000 + DOUBLE_ESCAPE_MS + 1, true).fire).toBe(false);
  });

  test("with a draft in the prompt, Escapes never fire", () => {
    const first = escapeTap({}, 1000, false);
    expect(first).toEqual({ fire: false, state: {} });
    expect(escapeTap(first.state, 1001, false).fire).toBe(false);
    // Armed on an empty prompt, then a draft typed: the second Escape does not fire either.
    expect(escapeTap(escapeTap({}, 1000, true).state, 1001, false).fire).toBe(false);
  });

  test("Escapes further apart than the window do not count as a pair", () => {
    const first = escapeTap({}, 1000, true);
    const late = escapeTap(first.state, 1000 + DOUBLE_ESCAPE_MS + 1, true);
    expect(late.fire).toBe(false);
    expect(escapeTap(late.state, 1000 + DOUBLE_ESCAPE_MS + 2, true).fire).toBe(true);
  });
});
