/**
 * The texts of summarisation requests. The wording lives in ./prompts/*.md, embedded in the
 * binary; the wrapper around them (tags, order, "Additional focus") is Pi's, so extensions and
 * tools that look at these requests see the same structure.
 */
import branchText from "./prompts/branch-summary.md" with { type: "text" };
import initialText from "./prompts/compaction-initial.md" with { type: "text" };
import updateText from "./prompts/compaction-update.md" with { type: "text" };
import systemText from "./prompts/system.md" with { type: "text" };
import turnPrefixText from "./prompts/turn-prefix.md" with { type: "text" };

/** The system prompt of every summarisation request (compaction, turn prefix, branch). */
export const SUMMARIZER_SYSTEM_PROMPT = systemText.trimEnd();
/** Instructions for a first compaction. */
export const INITIAL_INSTRUCTIONS = initialText.trimEnd();
/** Instructions for a compaction that updates an earlier summary. */
export const UPDATE_INSTRUCTIONS = updateText.trimEnd();
/** Instructions for the part of a split turn before the cut. */
export const TURN_PREFIX_INSTRUCTIONS = turnPrefixText.trimEnd();
/** Instructions for the summary of a branch left by tree navigation. */
export const BRANCH_SUMMARY_INSTRUCTIONS = branchText.trimEnd();

function withFocus(instructions: string, customInstructions: string | undefined): string {
  return customInstructions ? `${instructions}\n\nAdditional focus: ${customInstructions}` : instructions;
}

/** Compaction instructions: update ones when there is a previous summary, plus the user's focus. */
export function compactionInstructions(previousSummary: string | undefined, customInstructions?: string): string {
  return withFocus(previousSummary ? UPDATE_INSTRUCTIONS : INITIAL_INSTRUCTIONS, customInstructions);
}

/**
 * Branch-summary instructions: the user's own text alone when it replaces the default, else
 * the default with the user's text as additional focus.
 */
export function branchSummaryInstructions(customInstructions?: string, replaceInstructions?: boolean): string {
  if (replaceInstructions && customInstructions) return customInstructions;
  return withFocus(BRANCH_SUMMARY_INSTRUCTIONS, customInstructions);
}

/**
 * The single user message of a compaction or branch summary request: the serialised
 * conversation in `<conversation>` tags, the earlier summary in `<previous-summary>` tags when
 * there is one, then the instructions.
 */
export function summaryRequestText(parts: { conversation: string; previousSummary?: string | undefined; instructions: string }): string {
  let text = `<conversation>\n${parts.conversation}\n</conversation>\n\n`;
  if (parts.previousSummary) text += `<previous-summary>\n${parts.previousSummary}\n</previous-summary>\n\n`;
  return text + parts.instructions;
}

/**
 * The single user message of a turn-prefix request: the serialised messages under a
 * `# Conversation` heading, the instructions under `# Instructions` (Pi ≥ 0.87's layout, which
 * sets the material apart from what is asked of it more plainly than tags do).
 */
export function turnPrefixRequestText(conversation: string): string {
  return `# Conversation\n${conversation}\n\n# Instructions\n${TURN_PREFIX_INSTRUCTIONS}`;
}
