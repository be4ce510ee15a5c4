import { afterEach, describe, expect, test } from "bun:test";
import { onStopSignal, STOP_EXIT_CODES, type StopSignal } from "../../src/modes/stop-signals.ts";

const SIGNALS: StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

describe("stop signals", () => {
  test("the exit codes are those a shell reports for a process the signal killed", () => {
    expect(STOP_EXIT_CODES).toEqual({ SIGINT: 128 + 2, SIGTERM: 128 + 15, SIGHUP: 128 + 1 });
  });

  test("the first signal stops with its code and takes every handler away, so a second one ends pig at once", () => {
    const before = SIGNALS.map((s) => process.listenerCount(s));
    const stops: [number, string][] = [];
    removers.push(onStopSignal((code, signal) => stops.push([code, signal])));
    expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(before.map((n) => n + 1));
    process.emit("SIGTERM");
    expect(stops).toEqual([[143, "SIGTERM"]]);
    expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(before);
  });

  test("only the signals asked for are handled, and removing the handlers leaves none", () => {
    const before = SIGNALS.map((s) => process.listenerCount(s));
    const remove = onStopSignal(() => undefined, ["SIGTERM", "SIGHUP"]);
    expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual([before[0]!, before[1]! + 1, before[2]! + 1]);
    remove();
    expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(before);
  });
});
