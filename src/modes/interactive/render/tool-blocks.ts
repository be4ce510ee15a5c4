/**
 * The tool result blocks shown in this view, numbered in the order they were printed so that a
 * block's hint (`/expand 3`) stays true however many blocks follow it, and whether results are
 * shown whole (the toggle) or collapsed.
 */
import type { ToolBlock } from "./tools.ts";

export class ToolBlocks {
  private readonly blocks: ToolBlock[] = [];
  /** Results are printed whole rather than collapsed. */
  expandedAll = false;

  /** Adds a printed block; its number. */
  add(block: ToolBlock): number {
    this.blocks.push(block);
    return this.blocks.length;
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
