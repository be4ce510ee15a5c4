/**
 * The extension comparison's recorder against the built pig: a baseline run and a run with an
 * extension that does one of everything, and what compare-observations.ts makes of the two
 * (the same code pi-extensions.ts runs against upstream Pi; Pi itself is not needed here).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { PiInstall } from "../../scripts/bench/pi-install.ts";
import { effectOf } from "../../scripts/compat/compare-observations.ts";
import { makeWorld, observe, placeholders, removeWorld } from "../../scripts/compat/observe-agent.ts";
import { pigBinary } from "../helpers/binary.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm/server.ts";

const EXTENSION = join(import.meta.dir, "..", "fixtures", "extensions", "compat", "observed.ts");

// Only pig runs here: a Pi install that is never started (makeWorld puts its Node first on PATH).
const NO_PI: PiInstall = {
  release: "latest",
  version: "0",
  packageName: "none",
  dir: "/nonexistent",
  bin: "/nonexistent/pi",
  cmd: ["/nonexistent/pi"],
  binEntry: "pi",
  node: process.execPath,
  nodeBinDir: join(process.execPath, ".."),
  pkgDir: "/nonexistent",
  indexModule: "/nonexistent",
  sessionManagerModule: "/nonexistent",
};

let llm: FakeLlm;
beforeAll(async () => {
  pigBinary();
  llm = await startFakeLlm({ mode: "text" });
});
afterAll(() => llm.close());

async function run(args: string[], baselineTools?: Parameters<typeof observe>[3]["baselineTools"]) {
  const world = makeWorld(llm, "pig", NO_PI);
  try {
    const observation = await observe(llm, world, args, { settledBy: "agent_settled", ...(baselineTools ? { baselineTools } : {}) });
    return { observation, at: placeholders(world, NO_PI) };
  } finally {
    removeWorld(world);
  }
}

test("what an extension adds, relative to the baseline: prompt, tools, command, flag, UI calls, errors, tool results", async () => {
  const baseline = await run([]);
  expect(baseline.observation.loaded).toBe(true);
  expect(baseline.observation.systemPrompt).toContain("<cwd>");
  const withExtension = await run(["-e", EXTENSION], baseline.observation.tools);
  const effect = effectOf(withExtension.observation, baseline.observation, withExtension.at, baseline.at);

  expect(effect.loaded).toBe(true);
  expect(effect.prompt).toEqual({ added: { "text after <cwd>": "Observed rule: answer briefly." }, removed: [], changed: {} });
  expect(Object.keys(effect.tools).sort()).toEqual(["observed_fail", "observed_ok"]);
  expect(effect.tools.observed_ok!.description).toBe("Echoes its word");
  expect(effect.toolsRemoved).toEqual([]);
  expect(effect.commands).toEqual([{ name: "observed", source: "extension" }]);
  expect(effect.flags).toEqual(["observed-mode"]);
  expect(effect.messages).toBeUndefined();
  expect(effect.ui.map((c) => [c.phase, c.method, c.fields.message ?? c.fields.statusText])).toEqual([
    ["start", "notify", "observed-start"],
    ["prompt", "setStatus", "observed-running"],
    ["tools", "setStatus", "observed-running"],
  ]);
  expect(effect.errors.map((e) => e.event)).toEqual(["agent_end", "agent_end"]);
  expect(effect.errors[0]!.error).toContain("observed agent_end failure");
  // The scripted model called each tool with arguments its schema accepts.
  expect(effect.toolOutcomes).toEqual({
    observed_ok: { isError: false, text: "ok x a" },
    observed_fail: { isError: true, text: expect.stringContaining("observed failure") },
  });
}, 120_000);
