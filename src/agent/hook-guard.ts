/**
 * The hooks as the agent calls them: a hook that throws is treated as its no-op default (its
 * row's `none` in the event table) and reported, so a broken extension never stops a run. A hook
 * whose row says a throw blocks (`toolCall`) is passed through untouched: tool-calls.ts blocks
 * the call, as upstream does.
 */
import { HOOKED_EVENTS } from "../util/extension-events.ts";
import type { AgentHooks, HookMethod } from "./hooks.ts";

export type HookFailure = { event: string; error: string };

export function guardHooks(hooks: AgentHooks, report: (failure: HookFailure) => void): AgentHooks {
  const guarded = (event: string, name: HookMethod, fallback: unknown) => {
    const hook = hooks[name] as (...args: unknown[]) => Promise<unknown>;
    return async (...args: unknown[]) => {
      try {
        return await hook.apply(hooks, args);
      } catch (error) {
        // Upstream's event name is how an extension failure names the hook it happened in.
        report({ event, error: error instanceof Error ? error.message : String(error) });
        return structuredClone(fallback);
      }
    };
  };
  const methods = HOOKED_EVENTS.map(({ event, hook }) => [
    hook.name,
    hook.onThrow === "block" ? (...args: unknown[]) => (hooks[hook.name] as (...a: unknown[]) => Promise<unknown>).apply(hooks, args) : guarded(event, hook.name, hook.none),
  ]);
  return {
    ...(Object.fromEntries(methods) as unknown as Pick<AgentHooks, HookMethod>),
    listens: (event) => {
      try {
        return hooks.listens(event);
      } catch {
        return false;
      }
    },
  };
}
