/**
 * How a headless run ends for a script: the kind of failure of its last answer (a field of JSON
 * mode's `agent_settled`) and the exit code of each kind, the same for `-p` and `--mode json`
 * (the table in docs/cli-integration.md). Codes 2 and 128+ stay a usage error and signals.
 */
import { failureKind, type FailureKind } from "../ai/failure-kind.ts";
import type { PigEvent } from "../agent/events.ts";
import type { AssistantMessage } from "../ai/types.ts";
import type { ModelLookup } from "./failure-report.ts";

export const EXIT_CODES: Readonly<Record<FailureKind, number>> = {
  other: 1,
  auth: 3,
  rate_limit: 4,
  server_error: 5,
  unreachable: 6,
  context_overflow: 7,
  cut_off: 8,
  aborted: 9,
};

/** The kind of failure of `answer`, judged against the window of the model that wrote it. */
export function answerFailureKind(answer: AssistantMessage | undefined, lookup: ModelLookup, fallbackWindow: number | undefined): FailureKind | undefined {
  if (!answer) return undefined;
  const window = lookup(answer.provider, answer.model)?.contextWindow ?? fallbackWindow ?? Number.POSITIVE_INFINITY;
  return failureKind(answer, window);
}

/** The exit code of a run whose last answer failed as `kind` (0 when it did not fail). */
export function exitCodeFor(kind: FailureKind | undefined): number {
  return kind ? EXIT_CODES[kind] : 0;
}

/** The warning for an answer the model's output limit cut short: what happened, and what to do. */
export function cutOffText(answer: AssistantMessage): string {
  return (
    `the answer from ${answer.provider}/${answer.model} was cut off at the model's output limit (${answer.usage.output} output tokens): ` +
    `raise the model's maxTokens (models.json) or ask for a shorter answer`
  );
}

/**
 * The last answer of the run under way, from the event stream: the context may no longer hold
 * it (an overflow recovery drops the failed attempt, which still is how the run ended).
 */
export class LastAnswer {
  answer: AssistantMessage | undefined;

  observe(event: PigEvent): void {
    if (event.type === "agent_start") this.answer = undefined;
    else if (event.type === "message_end" && event.message.role === "assistant") this.answer = event.message as AssistantMessage;
  }
}
