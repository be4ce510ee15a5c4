/**
 * The `$/part` reassembly limit (64 × maxFrameBytes) is counted in UTF-8 bytes, the unit of the
 * frame limit, by the host's Connection and the runner's Peer alike (both use PartAssembler).
 */
import { expect, test } from "bun:test";
import { PART_LIMIT_FRAMES, PartAssembler } from "../../src/extensions/framing.ts";

test("the limit counts bytes, not characters", () => {
  const asm = new PartAssembler(10);
  // Five two-byte characters: ten bytes, at the limit.
  asm.add(1, "ééééé", false);
  // One more: six characters, but twelve bytes.
  expect(() => asm.add(1, "é", true)).toThrow("$/part stream 1 exceeds 10 bytes");
  const ascii = new PartAssembler(10);
  expect(ascii.add(2, "0123456789", true)).toBe("0123456789");
  expect(PART_LIMIT_FRAMES).toBe(64);
});
