/**
 * Print mode (`pig -p`): run the prompts, then write the final answer's text to stdout. Each
 * retry and a failed compaction get a line on stderr as they happen; a failed answer ends with
 * one line on stderr naming the provider, model, URL and attempts, and exit code 1. The answer
 * is written as the model wrote it into a pipe or file, and made terminal-safe on a terminal.
 */
import type { AgentSession } from "../agent/session.ts";
import type { PromptInput } from "./prompt-input.ts";
import { displayOnStdout, writeStderr } from "../util/stdio.ts";
import { AttemptCounter, failureText, retryText } from "./failure-report.ts";
import type { ModeExtensions } from "../extensions/registries.ts";
import { extensionErrorText } from "./extension-error.ts";
import { bindHeadlessUi, runHeadlessCommand } from "./headless-commands.ts";

export async function runPrintMode(session: AgentSession, prompts: PromptInput[], extensions?: ModeExtensions): Promise<number> {
  const attempts = new AttemptCounter();
  const reportExtensionError = (error: Parameters<typeof extensionErrorText>[0]) => writeStderr(`pig: ${extensionErrorText(error)}\n`);
  bindHeadlessUi(extensions);
  const unsubscribe = session.subscribe((event) => {
    attempts.observe(event);
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
      const last = session.lastAssistant();
      if (last && (last.stopReason === "error" || last.stopReason === "aborted")) break;
    }
  } catch (error) {
    // The session file stopped taking entries: the run was stopped, but an answer that came is
    // still the user's. It is printed; the error (and exit code 1) follows.
    if ((error as Error)?.name === "SessionSaveError") displayOnStdout(answerText(session));
    throw error;
  } finally {
    unsubscribe();
  }
  const last = session.lastAssistant();
  if (!last) return 0;
  if (last.stopReason === "aborted") {
    writeStderr(`${last.errorMessage ?? "Request aborted"}\n`);
    return 1;
  }
  if (last.stopReason === "error") {
    writeStderr(`pig: ${failureText(last, (provider, id) => session.registry.find(provider, id), attempts.attempts)}\n`);
    return 1;
  }
  displayOnStdout(answerText(session));
  return 0;
}

/** The text blocks of the last answer, a line each. */
function answerText(session: AgentSession): string {
  const last = session.lastAssistant();
  if (!last || last.stopReason === "error" || last.stopReason === "aborted") return "";
  let out = "";
  for (const block of last.content) if (block.type === "text") out += `${block.text}\n`;
  return out;
}
