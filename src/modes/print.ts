/**
 * Print mode (`pig -p`): run the prompts, then write the final answer's text to stdout. Each
 * retry and a failed compaction get a line on stderr as they happen; a failed answer ends with
 * one line on stderr naming the provider, model, URL and attempts, and the exit code of its kind
 * (run-outcome.ts); an answer cut at the output limit is printed, then warned about. The answer
 * is written as the model wrote it into a pipe or file, and made terminal-safe on a terminal.
 */
import type { AgentSession } from "../agent/session.ts";
import type { AssistantMessage } from "../ai/types.ts";
import type { PromptInput } from "./prompt-input.ts";
import { displayOnStdout, writeStderr } from "../util/stdio.ts";
import { AttemptCounter, failureText, retryText } from "./failure-report.ts";
import type { ModeExtensions } from "../extensions/registries.ts";
import { extensionErrorText } from "./extension-error.ts";
import { bindHeadlessUi, runHeadlessCommand } from "./headless-commands.ts";
import { answerFailureKind, cutOffText, exitCodeFor, LastAnswer } from "./run-outcome.ts";

export async function runPrintMode(session: AgentSession, prompts: PromptInput[], extensions?: ModeExtensions): Promise<number> {
  const attempts = new AttemptCounter();
  const answer = new LastAnswer();
  const reportExtensionError = (error: Parameters<typeof extensionErrorText>[0]) => writeStderr(`pig: ${extensionErrorText(error)}\n`);
  bindHeadlessUi(extensions);
  const unsubscribe = session.subscribe((event) => {
    attempts.observe(event);
    answer.observe(event);
    if (event.type === "auto_retry_start") {
      const model = session.model ? `${session.model.provider}/${session.model.id}` : undefined;
      writeStderr(`pig: ${retryText(event, model)}\n`);
    } else if (event.type === "compaction_end" && event.errorMessage) {
      writeStderr(`pig: ${event.errorMessage}\n`);
    } else if (event.type === "extension_error") reportExtensionError(event);
  });
  for (const report of extensions?.drainStartupErrors?.() ?? []) session.reportExtensionError(report);
  try {
    for (const prompt of prompts) {
      if (await runHeadlessCommand(extensions, prompt, reportExtensionError)) continue;
      await session.submit(prompt.text, { source: "interactive", images: prompt.images, ...(prompt.typed !== undefined ? { typedText: prompt.typed } : {}) });
      const last = answer.answer;
      if (last && (last.stopReason === "error" || last.stopReason === "aborted")) break;
    }
  } catch (error) {
    // The session file stopped taking entries: the run was stopped, but an answer that came is
    // still the user's. It is printed; the error (and exit code 1) follows.
    if ((error as Error)?.name === "SessionSaveError" && answer.answer) displayOnStdout(answerText(answer.answer));
    throw error;
  } finally {
    unsubscribe();
  }
  const last = answer.answer;
  if (!last) return 0;
  const lookup = (provider: string, id: string) => session.registry.find(provider, id);
  const kind = answerFailureKind(last, lookup, session.model?.contextWindow);
  if (last.stopReason === "aborted") {
    writeStderr(`${last.errorMessage ?? "Request aborted"}\n`);
  } else if (last.stopReason === "error") {
    writeStderr(`pig: ${failureText(last, lookup, attempts.attempts)}\n`);
  } else {
    // A cut answer is still what the model wrote: printed, then the warning and its own exit code.
    displayOnStdout(answerText(last));
    if (kind === "cut_off") writeStderr(`pig: ${cutOffText(last)}\n`);
    else if (kind) writeStderr(`pig: ${failureText(last, lookup, attempts.attempts)}\n`);
  }
  return exitCodeFor(kind);
}

/** The text blocks of the last answer, a line each. */
function answerText(last: AssistantMessage): string {
  if (last.stopReason === "error" || last.stopReason === "aborted") return "";
  let out = "";
  for (const block of last.content) if (block.type === "text") out += `${block.text}\n`;
  return out;
}
