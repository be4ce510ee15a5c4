/**
 * The pace of a run's collection requests: every ten turns in a short conversation, and spaced
 * in proportion to the context once it is long, so that their cost per turn stays flat.
 */
import { describe, expect, test } from "bun:test";
import { MESSAGES_PER_TURN_OF_SPACING, MIN_TURNS_BETWEEN_COLLECTIONS, turnsBetweenCollections } from "../../src/agent/collection-pace.ts";

describe("turnsBetweenCollections", () => {
  test("a short conversation collects every ten turns", () => {
    expect(turnsBetweenCollections(0)).toBe(MIN_TURNS_BETWEEN_COLLECTIONS);
    expect(turnsBetweenCollections(200)).toBe(10);
  });

  test("a long conversation spaces them by its size: the heap walked per turn stays the same", () => {
    expect(turnsBetweenCollections(201)).toBe(11);
    expect(turnsBetweenCollections(2_000)).toBe(100);
    // Messages per collection-free turn: constant once past the short range.
    for (const messages of [400, 2_000, 20_000]) expect(messages / turnsBetweenCollections(messages)).toBe(MESSAGES_PER_TURN_OF_SPACING);
  });
});
