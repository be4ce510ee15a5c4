/**
 * What is derived from the event table stays derived: the event table of
 * docs/extension-protocol.md and the JSON copy the SDKs' tests read are what
 * scripts/docs/events-table.ts would write, and the agent's defaults are the table's.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DERIVED_FILES, derivedText } from "../../scripts/docs/events-derived.ts";
import { guardHooks } from "../../src/agent/hook-guard.ts";
import { NO_HOOKS, type AgentHooks } from "../../src/agent/hooks.ts";
import { HOOKED_EVENTS } from "../../src/util/extension-events.ts";

const ROOT = join(import.meta.dir, "..", "..");

test.each([...DERIVED_FILES])("%s is what scripts/docs/events-table.ts writes from the table", (file) => {
  const current = readFileSync(join(ROOT, file), "utf8");
  expect(current).toBe(derivedText(file, current));
});

test("NO_HOOKS answers each hook with its row's value, and the guard falls back to it when a hook throws (tool_call's throw passes)", async () => {
  const failures: string[] = [];
  const throwing = Object.fromEntries(
    HOOKED_EVENTS.map(({ hook }) => [hook.name, async () => { throw new Error(`${hook.name} broke`); }]),
  ) as unknown as AgentHooks;
  const guarded = guardHooks({ ...throwing, listens: () => true }, (f) => failures.push(f.event));
  for (const { event, hook } of HOOKED_EVENTS) {
    const call = (hooks: AgentHooks) => (hooks[hook.name] as () => Promise<unknown>)();
    expect(await call(NO_HOOKS)).toEqual(hook.none);
    if (hook.onThrow === "block") await expect(call(guarded)).rejects.toThrow(`${hook.name} broke`);
    else expect(await call(guarded)).toEqual(hook.none);
    expect(failures.includes(event)).toBe(hook.onThrow === "skip");
  }
  expect(HOOKED_EVENTS.map((h): string => h.hook.name).sort()).toEqual(Object.keys(NO_HOOKS).filter((k) => k !== "listens").sort());
});
