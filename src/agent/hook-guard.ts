/**
 * The hooks as the agent calls them: a hook that throws is treated as its no-op default and
 * reported, so a broken extension never stops a run. `toolCall` is the exception: a throw there
 * blocks the call (tool-calls.ts), as upstream does, so it is passed through untouched.
 */
import type { AgentHooks } from "./hooks.ts";

export type HookFailure = { event: string; error: string };

/** Upstream's event names, which is how an extension failure names the hook it happened in. */
const EVENT_NAMES: Record<Exclude<keyof AgentHooks, "listens">, string> = {
  input: "input",
  beforeAgentStart: "before_agent_start",
  context: "context",
  contextWithSystem: "context_with_system",
  beforeProviderRequest: "before_provider_request",
  beforeProviderHeaders: "before_provider_headers",
  afterProviderResponse: "after_provider_response",
  toolCall: "tool_call",
  toolResult: "tool_result",
  messageEnd: "message_end",
  sessionBeforeCompact: "session_before_compact",
  sessionBeforeTree: "session_before_tree",
  sessionBeforeSwitch: "session_before_switch",
  sessionBeforeFork: "session_before_fork",
  userBash: "user_bash",
  turnEnd: "turn_end",
  beforeSettle: "agent_before_settle",
};

export function guardHooks(hooks: AgentHooks, report: (failure: HookFailure) => void): AgentHooks {
  const guarded = <K extends Exclude<keyof AgentHooks, "listens">>(name: K, fallback: Awaited<ReturnType<AgentHooks[K]>>): AgentHooks[K] => {
    const hook = hooks[name] as (...args: unknown[]) => Promise<unknown>;
    return (async (...args: unknown[]) => {
      try {
        return await hook.apply(hooks, args);
      } catch (error) {
        report({ event: EVENT_NAMES[name], error: error instanceof Error ? error.message : String(error) });
        return fallback;
      }
    }) as AgentHooks[K];
  };
  return {
    input: guarded("input", { action: "continue" }),
    beforeAgentStart: guarded("beforeAgentStart", undefined),
    context: guarded("context", undefined),
    contextWithSystem: guarded("contextWithSystem", undefined),
    beforeProviderRequest: guarded("beforeProviderRequest", undefined),
    beforeProviderHeaders: guarded("beforeProviderHeaders", undefined),
    afterProviderResponse: guarded("afterProviderResponse", undefined),
    toolCall: (event, signal) => hooks.toolCall(event, signal),
    toolResult: guarded("toolResult", undefined),
    messageEnd: guarded("messageEnd", undefined),
    sessionBeforeCompact: guarded("sessionBeforeCompact", undefined),
    sessionBeforeTree: guarded("sessionBeforeTree", undefined),
    sessionBeforeSwitch: guarded("sessionBeforeSwitch", undefined),
    sessionBeforeFork: guarded("sessionBeforeFork", undefined),
    userBash: guarded("userBash", undefined),
    turnEnd: guarded("turnEnd", undefined),
    beforeSettle: guarded("beforeSettle", undefined),
    listens: (event) => {
      try {
        return hooks.listens(event);
      } catch {
        return false;
      }
    },
  };
}
