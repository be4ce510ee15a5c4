/**
 * JSON mode (`pig --mode json`): the session header, then every event as one JSON line — the
 * same stream upstream Pi writes, for scripts and UIs that read it.
 */
import type { AgentSession } from "../agent/session.ts";
import type { PromptInput } from "./prompt-input.ts";
import { writeRecord as writeLine } from "./rpc-framing.ts";

export async function runJsonMode(session: AgentSession, prompts: PromptInput[]): Promise<number> {
  writeLine(session.store.header);
  const unsubscribe = session.subscribe(writeLine);
  try {
    for (const prompt of prompts) {
      await session.prompt(prompt.text, { images: prompt.images });
      const last = session.lastAssistant();
      if (last && (last.stopReason === "error" || last.stopReason === "aborted")) return 1;
    }
    return 0;
  } finally {
    unsubscribe();
  }
}
