/**
 * JSON mode (`pig --mode json`): the session header, then every event as one JSON line — the
 * same stream upstream Pi writes, for scripts and UIs that read it. A failed answer also gets
 * one line on stderr for the person watching (provider, model, URL, attempts).
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

export async function runJsonMode(session: AgentSession, prompts: PromptInput[], extensions?: ModeExtensions): Promise<number> {
  writeLine(session.store.header);
  const attempts = new AttemptCounter();
  // Upstream's JSON stream carries session events only: a failed extension is told on stderr (RPC writes the event).
  const reportExtensionError = (error: Parameters<typeof extensionErrorText>[0]) => writeStderr(`pig: ${extensionErrorText(error)}\n`);
  bindHeadlessUi(extensions);
  const unsubscribe = session.subscribe((event) => {
    attempts.observe(event);
    if (event.type === "extension_error") reportExtensionError(event);
    else writeLine(toWireEvent(event));
  });
  for (const report of extensions?.drainStartupErrors?.() ?? []) session.reportExtensionError(report);
  try {
    for (const prompt of prompts) {
      if (await runHeadlessCommand(extensions, prompt, reportExtensionError)) continue;
      await session.submit(prompt.text, { source: "interactive", images: prompt.images, ...(prompt.typed !== undefined ? { typedText: prompt.typed } : {}) });
      const last = session.lastAssistant();
      if (last?.stopReason === "error") {
        writeStderr(`pig: ${failureText(last, (provider, id) => session.registry.find(provider, id), attempts.attempts)}\n`);
      }
      if (last && (last.stopReason === "error" || last.stopReason === "aborted")) return 1;
    }
    return 0;
  } finally {
    unsubscribe();
  }
}
