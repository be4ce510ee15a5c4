/** Events with the failure texts that could quote a key (see util/redact.ts) cleaned in place. */
import type { AssistantMessage } from "../ai/types.ts";
import type { AgentMessage } from "../session/format.ts";
import type { SecretRedactor } from "../util/redact.ts";
import type { PigEvent } from "./events.ts";

export function redactAnswer(answer: AssistantMessage, redactor: SecretRedactor): void {
  if (answer.errorMessage) answer.errorMessage = redactor.redact(answer.errorMessage);
}

export function redactEvent(event: PigEvent, redactor: SecretRedactor): void {
  const carried = (event as { message?: AgentMessage }).message;
  if (carried?.role === "assistant") redactAnswer(carried as AssistantMessage, redactor);
  if (event.type === "message_update" && event.assistantMessageEvent.type === "error") redactAnswer(event.assistantMessageEvent.error, redactor);
  if (event.type === "compaction_end" && event.errorMessage) event.errorMessage = redactor.redact(event.errorMessage);
  else if (event.type === "auto_retry_start") event.errorMessage = redactor.redact(event.errorMessage);
  else if (event.type === "auto_retry_end" && event.finalError) event.finalError = redactor.redact(event.finalError);
}
