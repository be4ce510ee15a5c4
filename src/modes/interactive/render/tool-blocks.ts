/**
 * The tool result blocks shown in this view, numbered in the order of the session's branch so
 * that a block's hint (`/expand 3`) stays true however many blocks follow it and whatever part of
 * the branch a replay shows, and whether results are shown whole (the toggle) or collapsed.
 */
import type { ToolBlock } from "./tools.ts";

export class ToolBlocks {
  /** `undefined` for the results of the branch above what the view shows (numbered, not kept). */
  private readonly blocks: (ToolBlock | undefined)[] = [];
  /** Results are printed whole rather than collapsed. */
  expandedAll = false;

  /** Adds a printed block; its number. */
  add(block: ToolBlock): number {
    this.blocks.push(block);
    return this.blocks.length;
  }

  /** Counts `n` results the view does not show (above a replay), so the ones after keep their numbers. */
  skip(n: number): void {
    for (let i = 0; i < n; i++) this.blocks.push(undefined);
  }

  get(number: number): ToolBlock | undefined {
    return this.blocks[number - 1];
  }

  get count(): number {
    return this.blocks.length;
  }

  /** The view starts over (another session, or the conversation printed again). */
  clear(): void {
    this.blocks.length = 0;
  }
}
