import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { escapeWatch, isCancelKey } from "../../../src/modes/interactive/login/escape-watch.ts";

/** A terminal's input: raw mode is recorded, keys are written by the test. */
function terminalInput() {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(raw: boolean): void; raw: boolean[] };
  stream.isTTY = true;
  stream.raw = [];
  stream.setRawMode = (raw) => void stream.raw.push(raw);
  return stream;
}

describe("Escape during a sign-in of the first-run setup", () => {
  test("Escape alone and Ctrl+C cancel; an arrow key does not", () => {
    expect(isCancelKey("\x1b")).toBe(true);
    expect(isCancelKey("\x03")).toBe(true);
    expect(isCancelKey("\x1b[A")).toBe(false);
    expect(isCancelKey("a")).toBe(false);
  });

  test("while a login waits, Escape aborts it; while a dialog is open the keys are the dialog's", async () => {
    const input = terminalInput();
    const keys = escapeWatch(input);
    const seen: string[] = [];
    await keys.cancellable(async (cancel) => {
      await keys.dialog(async () => {
        input.write("\x1b");
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(`in dialog: ${cancel.signal.aborted}`);
      });
      input.write("\x1b");
      await new Promise<void>((resolve) => cancel.signal.addEventListener("abort", () => resolve(), { once: true }));
      seen.push(`after: ${cancel.signal.aborted}`);
    });
    expect(seen).toEqual(["in dialog: false", "after: true"]);
    // Raw while listening, given back for the dialog and at the end.
    expect(input.raw).toEqual([true, false, true, false]);
  });
});
