/** `/compact [instructions]`: summarise older messages now, and show the gist of the summary. */
import { ALREADY_COMPACTED, NOTHING_TO_COMPACT } from "../../../compaction/prepare.ts";
import type { SlashCommand } from "../host.ts";
import { summaryRows } from "../render/transcript.ts";
import { formatTokens } from "./format.ts";
import { about } from "./about.ts";

/** What a refusal (not a failure) is told as. */
const REFUSALS: Readonly<Record<string, string>> = {
  [NOTHING_TO_COMPACT]: "Nothing to compact yet: the session is still small.",
  [ALREADY_COMPACTED]: "Nothing to compact: the session was just compacted.",
};

export const compactCommand: SlashCommand = {
  ...about("compact"),
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
    // Shown as the replay shows the compaction entry: the summary's Markdown, its first rows.
    host.print(summaryRows(`Compacted ${formatTokens(result.tokensBefore)} tokens into a summary:`, result.summary, host.transcriptStyle(), false).join("\n"));
  },
};
