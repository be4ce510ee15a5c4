import { describe, expect, test } from "bun:test";
import { formatReport, type CheckResult } from "../../src/modes/extension-check/report.ts";
import { withStderr } from "../../src/modes/extension-check/session-checks.ts";
import { lastLines, withoutRepeatedStderr } from "../../src/modes/extension-check/stderr-tail.ts";

describe("the extension's stderr in the report", () => {
  test("the last 20 lines are kept, saying how many came before; blank output is nothing", () => {
    expect(lastLines("\n  \n")).toBeUndefined();
    expect(lastLines("one\ntwo\n\n")).toBe("one\ntwo");
    const many = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join("\n");
    const kept = lastLines(many)!.split("\n");
    expect(kept[0]).toBe("… (5 earlier lines)");
    expect(kept.slice(1)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 6}`));
  });

  test("a session's stderr goes with its first failed check only", () => {
    const results: CheckResult[] = [
      { name: "launch", status: "pass", detail: "ok" },
      { name: "tools.a", status: "fail", detail: "Extension exited" },
      { name: "tools.b", status: "fail", detail: "Extension exited" },
    ];
    expect(withStderr(results, "panic: boom").map((r) => r.stderr)).toEqual([undefined, "panic: boom", undefined]);
    expect(withStderr(results, undefined)).toBe(results);
    expect(withStderr([{ name: "launch", status: "pass", detail: "ok" }], "noise")).toEqual([{ name: "launch", status: "pass", detail: "ok" }]);
  });

  test("the same words from each launch are shown once, at the first check", () => {
    const results = withoutRepeatedStderr([
      { name: "launch", status: "fail", detail: "exited", stderr: "fatal" },
      { name: "launch.bad-token", status: "skip", detail: "not run", stderr: "fatal" },
      { name: "launch.version", status: "fail", detail: "other", stderr: "something else" },
    ]);
    expect(results.map((r) => r.stderr)).toEqual(["fatal", undefined, "something else"]);
  });

  test("the text report shows the stderr under its check", () => {
    const text = formatReport("x", [{ name: "launch", status: "fail", detail: "exited (code 3)", stderr: "a\nb" }]);
    expect(text).toBe("pig extension check: x\n  ✗ launch      exited (code 3)\n      its stderr:\n      │ a\n      │ b\n0 passed, 1 failed, 0 skipped\n");
  });
});
