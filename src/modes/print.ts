/**
 * Print mode (`pig -p`): run the prompts, then write the final answer's text to stdout. Errors
 * go to stderr and make the exit code 1.
 */
import type { AgentSession } from "../agent/session.ts";
import type { PromptInput } from "./prompt-input.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";

export async function runPrintMode(session: AgentSession, prompts: PromptInput[]): Promise<number> {
  for (const prompt of prompts) {
    await session.prompt(prompt.text, { images: prompt.images });
    const last = session.lastAssistant();
    if (last && (last.stopReason === "error" || last.stopReason === "aborted")) break;
  }
  const last = session.lastAssistant();
  if (!last) return 0;
  if (last.stopReason === "error" || last.stopReason === "aborted") {
    writeStderr(`${last.errorMessage ?? `Request ${last.stopReason}`}\n`);
    return 1;
  }
  let out = "";
  for (const block of last.content) if (block.type === "text") out += `${block.text}\n`;
  writeStdout(out);
  return 0;
}
