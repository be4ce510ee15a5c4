import { describe, expect, test } from "bun:test";
import { keptFrom, recoveryPlan } from "../../src/compaction/recovery.ts";
import { assistantMsg, chain, label, m, userMsg } from "./helpers.ts";

describe("recoveryPlan", () => {
  test("leaves out the failed answer (and what followed it) and places the compaction under its parent", () => {
    const branch = chain(m(userMsg("q")), m(assistantMsg("a")), m(userMsg("q2")), m(assistantMsg([], { stopReason: "error" })), label("e3"));
    expect(recoveryPlan(branch)).toEqual({ omitted: new Set(["e4", "e5"]), parentId: "e3" });
    const cutOff = chain(m(userMsg("q")), m(assistantMsg("half", { stopReason: "length" })));
    expect(recoveryPlan(cutOff)).toEqual({ omitted: new Set(["e2"]), parentId: "e1" });
  });

  test("has no plan when the last message is not a failed answer (it was never written)", () => {
    expect(recoveryPlan(chain(m(userMsg("q")), m(assistantMsg("fine")), m(userMsg("q2"))))).toBeUndefined();
    expect(recoveryPlan(chain(m(userMsg("q")), m(assistantMsg("fine"))))).toBeUndefined();
    expect(recoveryPlan([])).toBeUndefined();
  });
});

describe("keptFrom", () => {
  test("keeps nothing (null) when the cut is on the left-out attempt, else the cut", () => {
    const plan = { omitted: new Set(["failed"]), parentId: "q" };
    expect(keptFrom("failed", plan)).toBeNull();
    expect(keptFrom("q", plan)).toBe("q");
    expect(keptFrom("failed", undefined)).toBe("failed");
  });
});
