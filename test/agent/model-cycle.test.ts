import { describe, expect, test } from "bun:test";
import { makeRuntime } from "../interactive/commands/fake-host.ts";

describe("cycling models", () => {
  test("forward and backward walk the scoped list in opposite directions, wrapping around", () => {
    const runtime = makeRuntime();
    const alpha = runtime.registry.find("test", "alpha")!;
    const beta = runtime.registry.find("test", "beta")!;
    const gamma = { ...beta, id: "gamma" };
    const session = runtime.session;
    session.setScopedModels([alpha, beta, gamma]);
    const ids = (steps: ("forward" | "backward")[]) => steps.map((d) => session.cycleModel(d)!.model.id);
    expect(ids(["forward", "forward", "forward"])).toEqual(["beta", "gamma", "alpha"]);
    expect(ids(["backward", "backward", "backward"])).toEqual(["gamma", "beta", "alpha"]);
    expect(session.cycleModel("backward")!.isScoped).toBe(true);
  });
});
