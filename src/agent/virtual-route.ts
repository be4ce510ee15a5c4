/**
 * A virtual model's requests in one loop (upstream 1.x): before each, its router is told why the
 * request is made (`user` after a message the user wrote, `retry` for the loop's first request
 * when it retries a failed answer, `continuation` otherwise), the conversation, and the state it
 * keeps on the session branch; what it chooses is where the request goes.
 */
import type { AssistantMessage, Model } from "../ai/types.ts";
import { VIRTUAL_MODEL_STATE_ENTRY, type RouteReason } from "../ai/virtual-models.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage, SessionEntry, ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { RoutedCall } from "./loop.ts";
import type { ModelCalls } from "./model-calls.ts";

export interface RoutePorts {
  calls: ModelCalls;
  store(): SessionStore;
  /** The session's level: the virtual model's, which the router reads. */
  level(): ThinkingLevel;
  /** A state entry was appended (`entry_appended`). */
  appended(entry: SessionEntry): void;
}

/** The state a virtual model's router last left on `branch`. */
export function routerState(branch: readonly SessionEntry[], model: Pick<Model, "provider" | "id">): unknown {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type !== "custom" || entry.customType !== VIRTUAL_MODEL_STATE_ENTRY) continue;
    const data = entry.data as { provider?: unknown; modelId?: unknown; state?: unknown } | undefined;
    if (data?.provider === model.provider && data.modelId === model.id) return data.state;
  }
  return undefined;
}

/** Why the next request is made: after a user's message since the last answer, it is the user's. */
export function routeReason(messages: readonly AgentMessage[], retrying: boolean): RouteReason {
  if (retrying) return "retry";
  const lastAnswer = messages.findLastIndex((m) => m.role === "assistant");
  return messages.slice(lastAnswer + 1).some((m) => m.role === "user") ? "user" : "continuation";
}

export function routeRequests(model: Model, ports: RoutePorts, retrying?: AssistantMessage): (messages: readonly AgentMessage[], signal: AbortSignal) => Promise<RoutedCall> {
  let first = true;
  return async (messages, signal) => {
    const failed = first ? retrying : undefined;
    first = false;
    const store = ports.store();
    const state = routerState(store.getBranch(), model);
    const routed = await ports.calls.route(
      model,
      {
        reason: routeReason(messages, failed !== undefined),
        thinkingLevel: ports.level(),
        messages: convertToLlm(messages),
        ...(state !== undefined ? { state } : {}),
        ...(failed ? { failed } : {}),
      },
      signal,
    );
    // Stored before the request is sent, and kept if it fails; the same state again is not
    // stored twice (across the socket a router's `request.state` comes back as an equal copy).
    if (routed.state !== undefined && JSON.stringify(routed.state) !== JSON.stringify(state)) {
      const id = store.appendCustomEntry(VIRTUAL_MODEL_STATE_ENTRY, { provider: model.provider, modelId: model.id, state: routed.state });
      const entry = store.getEntry(id);
      if (entry) ports.appended(entry);
    }
    const options = await ports.calls.requestOptions(routed.model, true, signal, routed.thinkingLevel);
    return { model: routed.model, stream: ports.calls.stream(routed.model), options, thinkingLevel: routed.thinkingLevel };
  };
}
