/**
 * How the session calls models: the options of each request (key, headers, reasoning, HTTP
 * limits, the hooks that watch it), the check that a prompt can run at all, the calls summaries
 * are made with, and calls made for an extension outside the session's runs.
 */
import { missingKeyMessage } from "../ai/auth.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { clampThinkingLevel, isThinkingLevel } from "../ai/thinking.ts";
import type { AssistantMessage, Model, StreamFunction, StreamOptions, ThinkingBudgets } from "../ai/types.ts";
import { isVirtualModel, latestResponse, type RouteRequest, type RoutedPair } from "../ai/virtual-models.ts";
import { convertToLlm } from "../session/convert.ts";
import type { AgentMessage } from "../session/format.ts";
import type { SummaryCall, SummaryRetryEvents } from "../compaction/index.ts";
import type { RetrySettings } from "../resources/settings-effective.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { SecretRedactor } from "../util/redact.ts";
import { summaryCallFor } from "./compaction-runner.ts";
import { PromptError } from "./errors.ts";
import type { PigEvent, SummarySource } from "./events.ts";
import type { AgentHooks } from "./hooks.ts";
import { redactAnswer } from "./redact-events.ts";
import { requestOptions } from "./request-options.ts";

/** A model call made outside the session's runs (for an extension): pig's stream and the request's options. */
export interface OutsideCall {
  /** The model the call goes to: the one asked for, or where a virtual model's router sent it. */
  model: Model;
  stream: StreamFunction;
  /** The key, headers and HTTP limits of the session's own requests to the model; no hooks. */
  options: StreamOptions;
  /** Cleans a failure text that could quote the key, as the session's own answers are. */
  redact(answer: AssistantMessage): void;
}

/** Where one request of a virtual model goes. */
export interface Routed {
  model: Model;
  thinkingLevel: ThinkingLevel;
  /** The router's new state, when it returned one. */
  state?: unknown;
}

export interface ModelCallPorts {
  registry: ModelRegistry;
  redactor: SecretRedactor;
  /** The streaming function for an API (injectable for tests). */
  streamFor: (model: Model) => StreamFunction;
  /** Settings read for every request: `thinkingBudgets`. */
  requestSettings?: (() => { thinkingBudgets?: ThinkingBudgets | undefined }) | undefined;
  model(): Model | undefined;
  level(): ThinkingLevel;
  /** The session's conversation (a virtual model's router reads it for a direct request too). */
  conversation(): readonly AgentMessage[];
  sessionId(): string;
  retry(): RetrySettings;
  /** The hooks that watch the session's own requests; undefined when none are attached. */
  watchers(): AgentHooks | undefined;
  emit(event: PigEvent): void;
}

export class ModelCalls {
  constructor(private readonly ports: ModelCallPorts) {}

  /**
   * The options of a request to `model`; `watched`: the session's own, which the hooks see.
   * `level`: the routed level of a virtual model's request, instead of the session's.
   */
  requestOptions(model: Model, watched: boolean, signal?: AbortSignal, level?: ThinkingLevel): Promise<StreamOptions> {
    const ports = this.ports;
    return requestOptions(
      model,
      {
        registry: ports.registry,
        level: level ?? ports.level(),
        sessionId: ports.sessionId(),
        retry: ports.retry(),
        thinkingBudgets: ports.requestSettings?.().thinkingBudgets,
        redactor: ports.redactor,
        hooks: watched ? ports.watchers() : undefined,
      },
      signal,
    );
  }

  stream(model: Model): StreamFunction {
    return this.ports.streamFor(model);
  }

  /**
   * Where a virtual model's request goes: its router's choice, which must be a physical model of
   * the catalogue whose provider has credentials (upstream's errors otherwise), at a level the
   * model offers. Throws when routing fails; the request then ends as an error answer.
   */
  async route(model: Model, request: Omit<RouteRequest, "model" | "previous" | "failed"> & { failed?: AssistantMessage }, signal?: AbortSignal): Promise<Routed> {
    const { registry } = this.ports;
    const name = `Virtual model ${model.provider}/${model.id}`;
    const router = registry.virtualRouter(model.provider, model.id);
    if (!router) throw new Error(`${name} is not registered.`);
    const { failed, ...rest } = request;
    const pairOf = (answer: AssistantMessage | undefined): RoutedPair | undefined => {
      const physical = answer && registry.physicalModel(answer.provider, answer.model);
      return physical && { model: physical, ...(answer.thinkingLevel ? { thinkingLevel: answer.thinkingLevel as ThinkingLevel } : {}) };
    };
    const previous = pairOf(latestResponse(request.messages as { role: string }[]));
    const failedPair = pairOf(failed);
    const answer = await router(
      { ...rest, model, ...(previous ? { previous } : {}), ...(failedPair && failed ? { failed: { ...failedPair, message: failed } } : {}) },
      signal,
    );
    const target = registry.physicalModel(answer.model.provider, answer.model.id);
    const routed = `${name} routed to ${answer.model.provider}/${answer.model.id}`;
    if (!target) throw new Error(`${routed}, which is not a physical model.`);
    if (!registry.hasKey(target.provider)) throw new Error(`${routed}, which has no credentials.`);
    const asked = isThinkingLevel(answer.thinkingLevel) ? answer.thinkingLevel : "off";
    return { model: target, thinkingLevel: clampThinkingLevel(target, asked), ...(answer.state !== undefined ? { state: answer.state } : {}) };
  }

  /** Checks that a prompt can run now; throws `PromptError` with upstream's wording if not. */
  preflight(): Model {
    const model = this.ports.model();
    if (!model) {
      throw new PromptError("No model selected.\n\nUse --model, set defaultProvider/defaultModel in settings, or add a provider in models.json.");
    }
    // Whether a key is configured; it is resolved (a `!command` run) once per run, not here.
    if (!this.ports.registry.hasKey(model.provider)) {
      throw new PromptError(missingKeyMessage(model.provider));
    }
    return model;
  }

  /**
   * The model call summaries are made with, or undefined without a model or key. `source` names
   * the summary in the `summarization_retry_*` events its retries report.
   */
  async summaryCall(signal: AbortSignal, source?: SummarySource): Promise<SummaryCall | undefined> {
    const model = this.ports.model();
    if (!model) return undefined;
    const settings = this.ports.retry();
    // Summaries retry passing failures like answers do, when retrying is on.
    const retry = settings.enabled
      ? {
          maxRetries: settings.maxRetries,
          baseDelayMs: settings.baseDelayMs,
          maxDelayMs: settings.provider.maxRetryDelayMs,
          ...(source ? { events: this.summaryRetryEvents(source) } : {}),
        }
      : undefined;
    const target = await this.direct(model, signal);
    return summaryCallFor(target.model, await this.requestOptions(target.model, false, signal, target.level), this.ports.streamFor(target.model), signal, retry);
  }

  /**
   * Where a request made outside the agent loop goes (a summary, an extension's call): a virtual
   * model's router is asked with reason `direct`, without state, as upstream.
   */
  private async direct(model: Model, signal?: AbortSignal): Promise<{ model: Model; level?: ThinkingLevel }> {
    if (!isVirtualModel(model)) return { model };
    const routed = await this.route(model, { reason: "direct", thinkingLevel: this.ports.level(), messages: convertToLlm(this.ports.conversation()) }, signal);
    return { model: routed.model, level: routed.thinkingLevel };
  }

  private summaryRetryEvents(source: SummarySource): SummaryRetryEvents {
    const emit = (event: PigEvent) => this.ports.emit(event);
    return {
      scheduled: (attempt, maxAttempts, delayMs, errorMessage) => emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
      attemptStart: () => emit({ type: "summarization_retry_attempt_start", ...source }),
      finished: () => emit({ type: "summarization_retry_finished" }),
    };
  }

  /**
   * A call to `model` for an extension: pig's provider code and credentials, without the
   * session's hooks (extensions watch the session's requests, not each other's) and without its
   * thinking level (the caller says what it wants).
   */
  async outsideCall(model: Model, signal?: AbortSignal): Promise<OutsideCall> {
    const target = (await this.direct(model, signal)).model;
    const { reasoning: _level, ...options } = await this.requestOptions(target, false, signal);
    return { model: target, stream: this.ports.streamFor(target), options, redact: (answer) => redactAnswer(answer, this.ports.redactor) };
  }
}
