/**
 * The tool result blocks shown in this view, numbered in the order of the session's branch so
 * that a block's hint (`/expand 3`) stays true however many blocks follow it and whatever part of
 * the branch a replay shows, and whether results are shown whole (the toggle) or collapsed.
 */
import type { ToolBlock } from "./tools.ts";

export class ToolBlocks {
  /** The blocks printed, by number; the results of the branch above what the view shows are numbered, not kept. */
  private readonly blocks = new Map<number, ToolBlock>();
  private numbered = 0;
  /** Results are printed whole rather than collapsed. */
  expandedAll = false;

  /** Adds a printed block; its number. */
  add(block: ToolBlock): number {
    this.blocks.set(++this.numbered, block);
    return this.numbered;
  }

  /** Counts `n` results the view does not show (above a replay), so the ones after keep their numbers. */
  skip(n: number): void {
    this.numbered += n;
  }

  get(number: number): ToolBlock | undefined {
    return this.blocks.get(number);
  }

  get count(): number {
    return this.numbered;
  }

  /** The view starts over (another session, or the conversation printed again). */
  clear(): void {
    this.blocks.clear();
    this.numbered = 0;
  }
}
