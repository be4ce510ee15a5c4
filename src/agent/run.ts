/**
 * One run, from its prompt until it settles: failed answers are retried as configured, an
 * overflow is compacted and retried once, a context past the threshold is compacted (and queued
 * messages then delivered), and the hooks may ask for one more request before it settles —
 * however often that happens in one long run.
 */
import type { AssistantMessage, Model } from "../ai/types.ts";
import type { AgentMessage } from "../session/format.ts";
import type { Activity } from "./activity.ts";
import type { CompactionRunner } from "./compaction-runner.ts";
import type { Conversation } from "./conversation.ts";
import type { LoopEvent } from "./events.ts";
import { runAgentLoop, type LoopConfig } from "./loop.ts";
import type { SessionRecorder } from "./recorder.ts";
import type { Retrier } from "./retry.ts";

export interface RunHost {
  readonly activity: Activity;
  readonly conversation: Conversation;
  readonly retrier: Retrier;
  readonly compactor: CompactionRunner;
  readonly recorder: SessionRecorder;
  /** The model to run on; throws when the run cannot go on (no model, no key). */
  preflight(): Model;
  /** `retrying`: the failed answer the loop's first request retries (a virtual model's router is told). */
  loopConfig(model: Model, retrying?: AssistantMessage): LoopConfig;
  onLoopEvent(event: LoopEvent): void;
  /** Steering, then follow-ups, taken off their queues. */
  takeQueued(): AgentMessage[];
  /** When the run would settle: whether it goes on (the hooks asked for one more request). */
  beforeSettle(answer: AssistantMessage | undefined, signal: AbortSignal): Promise<boolean>;
}

/** `first` is the run's controller, made when the run was accepted (an abort may come before the first turn). */
export async function runWithRetries(host: RunHost, prompts: AgentMessage[], first: AbortController): Promise<void> {
  const { activity, conversation, retrier, compactor, recorder } = host;
  // Start on the next turn of the event loop: whoever started the run (an RPC command) answers
  // before the run's first event, as upstream does.
  await new Promise((resolve) => setImmediate(resolve));
  let next = prompts;
  let pending: AbortController | undefined = first;
  let retrying: AssistantMessage | undefined;
  for (;;) {
    const model = host.preflight();
    const controller = pending ?? activity.begin("run");
    pending = undefined;
    retrier.startRequest();
    await runAgentLoop(next, conversation, host.loopConfig(model, retrying), host.onLoopEvent, controller.signal);
    retrying = undefined;
    const messages = conversation.messages;
    const last = messages[messages.length - 1];
    const answer = last?.role === "assistant" ? (last as AssistantMessage) : undefined;
    if (recorder.failed) {
      retrier.stop("the session file could not be written");
      return;
    }
    if (controller.signal.aborted) {
      retrier.finish(answer, true);
      return;
    }
    if (answer && retrier.shouldRetry(answer, model)) {
      const again = await activity.during("retry", (signal) => retrier.wait(answer, () => conversation.dropLast(answer), signal));
      if (!again) return;
      retrying = answer;
      next = [];
      continue;
    }
    retrier.finish(answer, false);
    const outcome = await compactor.afterRun(answer);
    if (outcome === "retry") {
      // An overflow compacted: the request is made again (upstream tells the router so too).
      if (answer?.stopReason === "error") retrying = answer;
      next = [];
      continue;
    }
    if (outcome === "compacted") {
      // Messages queued while the context was full go out now, on the compacted context.
      const queued = host.takeQueued();
      if (queued.length > 0) {
        next = queued;
        continue;
      }
    }
    if (!controller.signal.aborted && (await host.beforeSettle(answer, controller.signal)) && !controller.signal.aborted) {
      next = host.takeQueued();
      continue;
    }
    return;
  }
}
