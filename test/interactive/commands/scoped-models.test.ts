import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scopedModelsCommand } from "../../../src/modes/interactive/commands/scoped-models.ts";
import { makeHost } from "./fake-host.ts";

const saved = (agentDir: string) => {
  const path = join(agentDir, "settings.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : {};
};

describe("/scoped-models", () => {
  test("the chosen models become the cycling list; saving writes enabledModels", async () => {
    const host = makeHost();
    host.pickManyAnswers = [["test/beta"]];
    host.confirmAnswers = [true];
    await scopedModelsCommand.run(host, "");
    expect(host.pickManyCalls[0]!.options.map((o) => o.value)).toEqual(["test/alpha", "test/beta"]);
    expect(host.pickManyCalls[0]!.initial).toEqual([]);
    expect(host.session.scopedModels.map((m) => m.id)).toEqual(["beta"]);
    expect(saved(host.agentDir).enabledModels).toEqual(["test/beta"]);
    expect(host.text).toContain("info: Ctrl+P cycles through 1 model.");

    host.pickManyAnswers = [[]];
    host.confirmAnswers = [true];
    await scopedModelsCommand.run(host, "");
    expect(host.pickManyCalls[1]!.initial).toEqual(["test/beta"]);
    expect(host.session.scopedModels).toEqual([]);
    expect(saved(host.agentDir).enabledModels).toBeUndefined();
  });

  test("not saving keeps the choice for this session only; cancelling changes nothing", async () => {
    const host = makeHost();
    host.pickManyAnswers = [["test/alpha", "test/beta"], "cancel"];
    host.confirmAnswers = [false];
    await scopedModelsCommand.run(host, "");
    expect(host.session.scopedModels.map((m) => m.id)).toEqual(["alpha", "beta"]);
    expect(saved(host.agentDir).enabledModels).toBeUndefined();
    await scopedModelsCommand.run(host, "");
    expect(host.session.scopedModels.map((m) => m.id)).toEqual(["alpha", "beta"]);
  });
});
