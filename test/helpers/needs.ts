/**
 * Tests that need a program the machine may lack (tmux, rg, fd, go). Where it is missing they are
 * skipped — except under CI=true, where a missing program fails the run instead, so a green CI
 * never means "nothing ran".
 */
import { describe, test } from "bun:test";

export function inCI(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/** `describe(name, body)` when `available`; otherwise skipped, or one failing test under CI. */
export function describeNeeding(what: string, available: boolean, name: string, body: () => void): void {
  if (available) {
    describe(name, body);
    return;
  }
  if (!inCI()) {
    describe.skip(name, body);
    return;
  }
  describe(name, () => {
    test(`needs ${what}`, () => {
      throw new Error(`${what} is not installed, and CI=true: .ci/run installs it; these tests must run in CI`);
    });
  });
}
