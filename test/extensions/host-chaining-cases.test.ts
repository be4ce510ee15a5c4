/**
 * The host combines several extensions' answers by the event table's rules: every `across`
 * case of test/fixtures/extension-events/chaining.json, each extension answering once.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentHooks } from "../../src/agent/hooks.ts";
import { OpenBoundaries } from "../../src/extensions/host/boundaries.ts";
import { EventDispatcher } from "../../src/extensions/host/dispatch.ts";
import { createHooks } from "../../src/extensions/host/hooks.ts";
import type { RegistrationStore } from "../../src/extensions/host/registry.ts";

interface AcrossCase {
  name: string;
  event: string;
  payload: Record<string, unknown>;
  extensions: unknown[];
  result: unknown;
  asked: number;
  seen?: { field: string; values: unknown[] };
  errors?: number;
}

const FILE = join(import.meta.dir, "..", "fixtures", "extension-events", "chaining.json");
const CASES = (JSON.parse(readFileSync(FILE, "utf8")) as { across: AcrossCase[] }).across;

/** Each event's hook, called with the case's payload. */
const CALL: Record<string, (hooks: AgentHooks, p: Record<string, unknown>) => Promise<unknown>> = {
  input: (h, p) => h.input(p as never),
  before_agent_start: (h, p) => h.beforeAgentStart(p as never),
  context: (h, p) => h.context(p.messages as never),
  context_with_system: (h, p) => h.contextWithSystem(p.messages as never),
  message_end: (h, p) => h.messageEnd(p.message as never),
  before_provider_request: (h, p) => h.beforeProviderRequest(p.payload),
  before_provider_headers: (h, p) => h.beforeProviderHeaders(p.headers as never),
  tool_call: (h, p) => h.toolCall(p as never),
  tool_result: (h, p) => h.toolResult(p as never),
  session_before_switch: (h, p) => h.sessionBeforeSwitch(p as never),
  session_before_fork: (h, p) => h.sessionBeforeFork(p as never),
  session_before_compact: (h, p) => h.sessionBeforeCompact({ ...p, signal: new AbortController().signal } as never),
  session_before_tree: (h, p) => h.sessionBeforeTree({ ...p, signal: new AbortController().signal } as never),
  user_bash: (h, p) => h.userBash(p as never),
  turn_end: (h, p) => h.turnEnd(p as never, () => ({}) as never),
  agent_before_settle: (h, p) => h.beforeSettle(p as never, () => ({}) as never),
};

test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
  const ids = c.extensions.map((_, i) => `ext${i + 1}`);
  const seen: unknown[] = [];
  const errors: string[] = [];
  let asked = 0;
  const dispatcher = new EventDispatcher({
    registry: { subscribers: () => ids } as unknown as RegistrationStore,
    route: {
      isUp: () => true,
      notify: () => {},
      async request(extension, _method, params) {
        asked++;
        const { payload } = params as { payload: Record<string, unknown> };
        if (c.seen) seen.push(structuredClone(payload[c.seen.field] ?? (c.seen.field === "entries" ? [] : undefined)));
        const answer = c.extensions[ids.indexOf(extension)];
        if (typeof answer === "object" && answer !== null && "$throw" in answer) throw new Error(String(answer.$throw));
        return structuredClone(answer);
      },
    },
    onError: (report) => errors.push(report.error),
  });
  const hooks = createHooks(dispatcher, new OpenBoundaries());
  const result = await CALL[c.event]!(hooks, structuredClone(c.payload));
  expect(result ?? null).toEqual(c.result as never);
  expect({ asked, errors: errors.length }).toEqual({ asked: c.asked, errors: c.errors ?? 0 });
  if (c.seen) expect(seen).toEqual(c.seen.values);
});

test("every hooked request has across cases", () => {
  const events = new Set(CASES.map((c) => c.event));
  for (const event of ["input", "before_agent_start", "context", "message_end", "before_provider_request", "before_provider_headers", "tool_call", "tool_result", "session_before_switch", "session_before_compact", "user_bash", "turn_end"]) {
    expect(events.has(event)).toBe(true);
  }
});
