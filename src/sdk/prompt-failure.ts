/**
 * Why a prompt's run failed, as a kind a program can branch on and the provider's own text: the
 * error `RpcClient.prompt()` rejects with. The kind is read from the final answer the way pig's
 * retry rules read it (a leading HTTP status, the connection error's words, the overflow patterns).
 */
import { isContextOverflow } from "../ai/errors.ts";
import type { AgentMessage, AssistantMessage } from "../session/format.ts";
import type { InputDisposition, RpcEvent } from "./rpc-types.ts";

export type PromptFailureKind =
  /** The provider refused the credentials (401, 403). */
  | "auth"
  | "rate_limit"
  /** The provider failed (5xx, an overloaded service). */
  | "server_error"
  /** No answer came: the connection was refused, the host unknown, the request timed out. */
  | "unreachable"
  | "context_overflow"
  /** The answer stopped at the model's output limit (`stopReason: "length"`). */
  | "cut_off"
  /** The run was stopped (`abort()`). */
  | "aborted"
  /** pig accepted the prompt and then could not run it (a `prompt_error` event). */
  | "prompt_error"
  | "other";

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

const UNREACHABLE = /^Connection error\.|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timed? ?out|fetch failed|socket hang up|ECONNRESET/i;

/** The kind of an answer that ended in an error, from its error text. */
export function failureKindOf(errorMessage: string): PromptFailureKind {
  const status = /^(\d{3})\b/.exec(errorMessage.trim())?.[1];
  // The overflow rules read only these fields of a failed answer.
  const probe = { stopReason: "error", errorMessage, usage: { input: 0, cacheRead: 0, output: 0 } } as unknown as Parameters<typeof isContextOverflow>[0];
  if (isContextOverflow(probe, Number.POSITIVE_INFINITY)) return "context_overflow";
  if (status === "401" || status === "403") return "auth";
  if (status === "429" || /rate.?limit|too many requests/i.test(errorMessage)) return "rate_limit";
  if ((status && status.startsWith("5")) || /overloaded|service.?unavailable/i.test(errorMessage)) return "server_error";
  if (UNREACHABLE.test(errorMessage)) return "unreachable";
  return "other";
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
  if (answer.stopReason === "error") {
    const text = answer.errorMessage || "the answer ended in an error";
    return new PromptError(failureKindOf(text), text, result);
  }
  if (answer.stopReason === "aborted") return new PromptError("aborted", answer.errorMessage || "the run was aborted", result);
  if (answer.stopReason === "length") return new PromptError("cut_off", "the answer was cut off at the model's output limit (raise its maxTokens or ask for less)", result);
  return undefined;
}
