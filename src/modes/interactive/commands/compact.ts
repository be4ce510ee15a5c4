/** `/compact [instructions]`: summarise older messages now, and show the gist of the summary. */
import type { SlashCommand } from "../host.ts";
import { formatTokens } from "./format.ts";

const PREVIEW_LINES = 4;

/** The first few non-blank lines of a summary, so the screen is not flooded. */
export function summaryPreview(summary: string): string {
  const lines = summary.split("\n").filter((line) => line.trim());
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `  ${line}`);
  if (lines.length > PREVIEW_LINES) shown.push(`  … (${lines.length - PREVIEW_LINES} more lines)`);
  return shown.join("\n");
}

export const compactCommand: SlashCommand = {
  name: "compact",
  description: "Summarize older messages to free context",
  argumentHint: "[instructions]",
  async run(host, args) {
    host.info("Compacting…");
    const result = await host.controller.compact(args.trim() || undefined);
    host.info(`Compacted (${formatTokens(result.tokensBefore)} tokens before). Summary:`);
    host.print(summaryPreview(result.summary));
  },
};
