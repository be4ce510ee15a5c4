/** `/compact [instructions]`: summarise older messages now, and show the gist of the summary. */
import { ALREADY_COMPACTED, NOTHING_TO_COMPACT } from "../../../compaction/prepare.ts";
import type { SlashCommand } from "../host.ts";
import { formatTokens } from "./format.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

const PREVIEW_LINES = 4;

/** The first few non-blank lines of a summary, so the screen is not flooded. */
export function summaryPreview(summary: string): string {
  // The model wrote the summary.
  const lines = terminalSafe(summary).split("\n").filter((line) => line.trim());
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `  ${line}`);
  if (lines.length > PREVIEW_LINES) shown.push(`  … (${lines.length - PREVIEW_LINES} more lines)`);
  return shown.join("\n");
}

/** What a refusal (not a failure) is told as. */
const REFUSALS: Readonly<Record<string, string>> = {
  [NOTHING_TO_COMPACT]: "Nothing to compact yet: the session is still small.",
  [ALREADY_COMPACTED]: "Nothing to compact: the session was just compacted.",
};

export const compactCommand: SlashCommand = {
  name: "compact",
  description: "Summarize older messages to free context",
  argumentHint: "[instructions]",
  async run(host, args) {
    // The spinner says it is compacting; the outcome is told once, here.
    let result;
    try {
      result = await host.session.compact(args.trim() || undefined);
    } catch (error) {
      const refusal = REFUSALS[(error as Error).message];
      if (refusal) {
        host.info(refusal);
        return;
      }
      throw error;
    }
    host.info(`Compacted ${formatTokens(result.tokensBefore)} tokens into a summary:`);
    host.print(summaryPreview(result.summary));
  },
};
