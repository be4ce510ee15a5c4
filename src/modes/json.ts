/**
 * JSON mode (`pig --mode json`): the session header, then every event as one JSON line — the
 * same stream upstream Pi writes, for scripts and UIs that read it. A failed answer also gets
 * one line on stderr for the person watching (provider, model, URL, attempts); `agent_settled`,
 * the line that ends a prompt's run, names the kind of failure (`failureKind`), which is also
 * the exit code's (run-outcome.ts).
 */
import type { AgentSession } from "../agent/session.ts";
import type { PromptInput } from "./prompt-input.ts";
import { writeRecord as writeLine } from "./rpc-framing.ts";
import { writeStderr } from "../util/stdio.ts";
import { AttemptCounter, failureText } from "./failure-report.ts";
import { toWireEvent } from "./wire-event.ts";
import type { ModeExtensions } from "../extensions/registries.ts";
import { extensionErrorText } from "./extension-error.ts";
import { bindHeadlessUi, runHeadlessCommand } from "./headless-commands.ts";
import { answerFailureKind, cutOffText, exitCodeFor, LastAnswer } from "./run-outcome.ts";

export async function runJsonMode(session: AgentSession, prompts: PromptInput[], extensions?: ModeExtensions): Promise<number> {
  writeLine(session.store.header);
  const attempts = new AttemptCounter();
  const lookup = (provider: string, id: string) => session.registry.find(provider, id);
  const answer = new LastAnswer();
  const lastKind = () => answerFailureKind(answer.answer, lookup, session.model?.contextWindow);
  // Upstream's JSON stream carries session events only: a failed extension is told on stderr (RPC writes the event).
  const reportExtensionError = (error: Parameters<typeof extensionErrorText>[0]) => writeStderr(`pig: ${extensionErrorText(error)}\n`);
  bindHeadlessUi(extensions);
  const unsubscribe = session.subscribe((event) => {
    attempts.observe(event);
    answer.observe(event);
    if (event.type === "extension_error") reportExtensionError(event);
    else if (event.type === "agent_settled") {
      // The line that ends a prompt's run says how it failed, so a script reads one line, not the answer.
      const failureKind = event.aborted ? "aborted" : lastKind();
      writeLine(failureKind ? { ...event, failureKind } : event);
    } else writeLine(toWireEvent(event));
  });
  for (const report of extensions?.drainStartupErrors?.() ?? []) session.reportExtensionError(report);
  try {
    let kind: ReturnType<typeof lastKind>;
    for (const prompt of prompts) {
      if (await runHeadlessCommand(extensions, prompt, reportExtensionError)) continue;
      await session.submit(prompt.text, { source: "interactive", images: prompt.images, ...(prompt.typed !== undefined ? { typedText: prompt.typed } : {}) });
      const last = answer.answer;
      kind = lastKind();
      if (last && kind === "cut_off") writeStderr(`pig: ${cutOffText(last)}\n`);
      else if (last && kind && kind !== "aborted") writeStderr(`pig: ${failureText(last, lookup, attempts.attempts)}\n`);
      if (last && (last.stopReason === "error" || last.stopReason === "aborted")) return exitCodeFor(kind);
    }
    // A cut answer lets the next prompt go on; only the last answer's kind is the exit code.
    return exitCodeFor(kind);
  } finally {
    unsubscribe();
  }
}
