/**
 * Why a prompt's run failed, as a kind a program can branch on and the provider's own text: the
 * error `RpcClient.prompt()` rejects with. The kind is read from the final answer by the rules
 * `-p` and `--mode json` use for their exit codes (ai/failure-kind.ts).
 */
import { failureKind, type FailureKind } from "../ai/failure-kind.ts";
import type { AgentMessage, AssistantMessage } from "../session/format.ts";
import type { InputDisposition, RpcEvent } from "./rpc-types.ts";

/**
 * How the run failed: `auth` (401, 403), `rate_limit`, `server_error` (5xx, overloaded),
 * `unreachable` (refused, unknown host, timed out), `context_overflow`, `cut_off` (the output
 * limit), `aborted`, `other`; or `prompt_error`: pig accepted the prompt and could not run it.
 */
export type PromptFailureKind = FailureKind | "prompt_error";

/** What a prompt's run produced. */
export interface PromptResult {
  /** Where the prompt went: `started` a run, `queued` into one going on, or `handled` by an extension (no run). */
  disposition: InputDisposition;
  /** The final answer's text ("" when there is none). */
  text: string;
  /** The final answer: the run's last assistant message (undefined when no run started). */
  message: AssistantMessage | undefined;
  /** The messages the run added, in order (each `message_end`'s message). */
  messages: AgentMessage[];
  /** Every event from the prompt's answer to the end of its run. */
  events: RpcEvent[];
}

/** A prompt whose run failed: `kind` says how, `message` is the provider's (or pig's) text, `result` what the run produced. */
export class PromptError extends Error {
  override readonly name = "PromptError";
  constructor(
    readonly kind: PromptFailureKind,
    message: string,
    readonly result: PromptResult,
  ) {
    super(message);
  }
}

function contentText(message: AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}

/** The result of a run from its events; the final answer is the last assistant message. */
export function promptResult(disposition: InputDisposition, events: RpcEvent[]): PromptResult {
  const messages = events.flatMap((e) => (e.type === "message_end" ? [e.message] : []));
  const message = messages.findLast((m): m is AssistantMessage => m.role === "assistant");
  return { disposition, text: message ? contentText(message) : "", message, messages, events };
}

/** The failure of a finished run, or undefined when it succeeded. */
export function promptFailure(result: PromptResult): PromptError | undefined {
  const refused = result.events.findLast((e) => e.type === "prompt_error");
  if (refused?.type === "prompt_error") return new PromptError("prompt_error", refused.error, result);
  const answer = result.message;
  if (!answer) return undefined;
  // The model's context window is pig's to know: an overflow is told by the provider's words here.
  const kind = failureKind(answer as Parameters<typeof failureKind>[0], Number.POSITIVE_INFINITY);
  if (!kind) return undefined;
  if (kind === "cut_off") return new PromptError(kind, "the answer was cut off at the model's output limit (raise its maxTokens or ask for less)", result);
  if (kind === "aborted") return new PromptError(kind, answer.errorMessage || "the run was aborted", result);
  return new PromptError(kind, answer.errorMessage || "the answer ended in an error", result);
}
