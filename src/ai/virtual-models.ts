/**
 * Upstream Pi 1.x's virtual models: catalogue entries an extension registers and routes, request
 * by request, to a physical model (docs/models.md, "Virtual models"). The selection names the
 * virtual model; each answer names the physical model that gave it. Pure: the registry lists
 * them, the agent asks the router.
 */
import type { AssistantMessage, Model, ThinkingLevel } from "./types.ts";
import { THINKING_LEVELS } from "./thinking.ts";

/** The API of a virtual catalogue entry: no provider module serves it; requests are routed first. */
export const VIRTUAL_MODEL_API = "pi-virtual";

/** The custom entry that keeps a router's state on the session branch (upstream's type name). */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

/** What an extension's `registerVirtualModel` says of the model (its `route` stays with it). */
export interface VirtualModelDefinition {
  provider: string;
  id: string;
  name?: string;
  /** The levels offered for selection (upstream's default: `["off"]`). */
  thinkingLevels?: readonly ThinkingLevel[];
  contextWindow?: number;
  maxTokens?: number;
  input?: readonly ("text" | "image")[];
}

export function isVirtualModel(model: Pick<Model, "api">): boolean {
  return model.api === VIRTUAL_MODEL_API;
}

/** The catalogue entry of a virtual model, as upstream builds it. */
export function createVirtualModel(definition: VirtualModelDefinition): Model {
  const levels = definition.thinkingLevels ?? ["off"];
  const thinkingLevelMap: Partial<Record<ThinkingLevel, string | null>> = {};
  for (const level of THINKING_LEVELS) thinkingLevelMap[level] = levels.includes(level) ? level : null;
  return {
    id: definition.id,
    name: definition.name ?? definition.id,
    api: VIRTUAL_MODEL_API,
    provider: definition.provider,
    baseUrl: "",
    reasoning: levels.some((level) => level !== "off"),
    thinkingLevelMap,
    input: [...(definition.input ?? ["text", "image"])],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: definition.contextWindow ?? 0,
    maxTokens: definition.maxTokens ?? 0,
  };
}

/** Why a request is made, as the router is told. */
export type RouteReason = "user" | "continuation" | "retry" | "direct";

/** A physical model and level a router chose, or an earlier request used. */
export interface RoutedPair {
  model: Model;
  thinkingLevel?: ThinkingLevel;
}

/** What the router is asked for one request (upstream's `request`, without its signal). */
export interface RouteRequest {
  model: Model;
  thinkingLevel: ThinkingLevel;
  reason: RouteReason;
  previous?: RoutedPair;
  failed?: RoutedPair & { message: AssistantMessage };
  state?: unknown;
  messages: readonly unknown[];
}

/** The router's answer: a model by name (looked up in the catalogue), a level, and new state. */
export interface RouteAnswer {
  model: { provider: string; id: string };
  thinkingLevel?: string | undefined;
  state?: unknown;
}

/** The latest answer that did not fail: its model is physical (failed routings name the virtual one). */
export function latestResponse(messages: readonly { role: string }[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    const answer = message as AssistantMessage;
    if (answer.stopReason !== "error" && answer.stopReason !== "aborted") return answer;
  }
  return undefined;
}

/**
 * The model whose limits (context window, output) count for the selection: for a virtual model,
 * the physical model of the latest answer (upstream's rule), else the virtual model's own.
 */
export function limitsModel(selected: Model | undefined, messages: readonly { role: string }[], physical: (provider: string, id: string) => Model | undefined): Model | undefined {
  if (!selected || !isVirtualModel(selected)) return selected;
  const latest = latestResponse(messages);
  return (latest && physical(latest.provider, latest.model)) ?? selected;
}

