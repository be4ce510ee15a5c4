/**
 * What is printed when a session is opened: one line naming it (the shortest id prefix
 * `pig --session` takes, its name, how many messages, its file), then the end of its active
 * branch as it looked live, a line counting the messages above that, and a closing rule.
 */
import type { SessionStore } from "../../session/store.ts";
import { countBranch, replayBranch } from "./replay.ts";
import type { ToolBlocks } from "./render/tool-blocks.ts";
import { replaySeparator, type TranscriptStyle } from "./render/transcript.ts";
import { wrapLine } from "./render/wrap.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";
import { formatCount } from "../../util/count-text.ts";

export interface BannerInput {
  store: SessionStore;
  /** The id as the user can type it (a unique prefix). */
  shortId: string;
  style: TranscriptStyle;
  blocks: ToolBlocks;
  /** `replayScreens`: screens of conversation to print (0: only the session line). */
  screens: number;
  terminal: { columns: number; rows: number };
}

export function sessionBanner(input: BannerInput): string[] {
  const { store, style } = input;
  const t = style.theme;
  // Counted from the entry index (the messages themselves are read when the model needs them),
  // as the line about what is above counts them: every message of the branch.
  const records = store.branchRecords();
  const branch = countBranch(records);
  const messages = branch.messages;
  const header = `Session ${input.shortId}${store.name ? ` "${terminalSafe(store.name)}"` : ""} · ${messages} message${messages === 1 ? "" : "s"}${store.path ? ` · ${store.path}` : ""}`;
  // Its path breaks at a `/`, not wherever the terminal's edge falls.
  const out = wrapLine(t.fg("muted", header), input.terminal.columns);
  // The last screen keeps room for the session line, the line about what is above, the rule and the prompt.
  const reserved = out.length + 4;
  const budget = input.screens > 0 ? Math.max(1, input.screens * input.terminal.rows - reserved) : 0;
  // The branch as already read, not walked again. Nothing of it shown, its tool results are still
  // counted: the next one is numbered after them, as a replay would number it.
  const replay = replayBranch({ branchRecords: () => records, readEntry: store.readEntry }, style, budget, input.blocks, branch);
  if (budget === 0 || messages === 0) return out;
  if (replay.hiddenMessages > 0) {
    const n = replay.hiddenMessages;
    out.push(t.fg("dim", `… ${formatCount(n)} earlier message${n === 1 ? "" : "s"} not shown (replayScreens: ${input.screens}; /export writes all of them)`));
  }
  out.push(...replay.rows, replaySeparator(t, style.width));
  return out;
}
