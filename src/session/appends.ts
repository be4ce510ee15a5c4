/**
 * The typed appends of a session, under Pi's `SessionManager.append…` names: each builds its
 * entry (entries.ts) as a child of the leaf and hands it to the store's one `append`, which puts
 * it in the tree and writes it. The store holds one and passes its calls on, so that store.ts
 * keeps to what a session holds and how it reaches the disk, while callers still call
 * `store.appendMessage(…)`.
 */
import type { SessionContext } from "./context.ts";
import * as make from "./entries.ts";
import type { AgentMessage, SessionEntry, ThinkingLevel, Usage, UserContentBlock } from "./format.ts";
import { newEntryId } from "./ids.ts";
import { currentSystemMessage } from "./system-messages.ts";
import type { SessionTree } from "./tree.ts";

/** What the appends need of the session they append to (the store). */
export interface AppendTarget {
  readonly tree: SessionTree;
  readonly leafId: string | null;
  branch(id: string): void;
  resetLeaf(): void;
  buildContext(leafId?: string | null): SessionContext;
  /** Puts `entry` in the tree as the new leaf and writes it; returns its id. */
  append(entry: SessionEntry): string;
}

export class SessionAppends {
  constructor(private readonly session: AppendTarget) {}

  private get tree(): SessionTree {
    return this.session.tree;
  }

  private get leafId(): string | null {
    return this.session.leafId;
  }

  private append(entry: SessionEntry): string {
    return this.session.append(entry);
  }

  private nextPosition(): make.EntryPosition {
    return { id: newEntryId(this.tree), parentId: this.leafId, timestamp: new Date().toISOString() };
  }

  appendMessage(message: AgentMessage): string {
    return this.append(make.messageEntry(this.nextPosition(), message));
  }

  appendModelChange(provider: string, modelId: string): string {
    return this.append(make.modelChangeEntry(this.nextPosition(), provider, modelId));
  }

  appendThinkingLevelChange(level: ThinkingLevel): string {
    return this.append(make.thinkingLevelChangeEntry(this.nextPosition(), level));
  }

  /**
   * Appends a compaction (Pi's argument order): `firstKeptEntryId` null keeps nothing. It carries
   * the prompt and tools in force as its `systemMessage` checkpoint, so the compacted context can
   * start with them. `options.parentId` places it elsewhere than after the leaf (the overflow
   * recovery puts it beside the failed attempt); the compaction becomes the leaf either way.
   */
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: Usage,
    options: { parentId?: string | null } = {},
  ): string {
    const parentId = options.parentId === undefined ? this.leafId : options.parentId;
    if (parentId !== null && !this.tree.has(parentId)) throw new Error(`Entry ${parentId} not found`);
    const systemMessage = currentSystemMessage(this.session.buildContext(parentId).messages);
    return this.appendAt(parentId, (at) =>
      make.compactionEntry(at, { summary, firstKeptEntryId, tokensBefore, details, usage, fromHook, systemMessage }),
    );
  }

  /**
   * Moves the leaf to `toId` (null: before the first entry) and records there a summary of the
   * branch left; its `fromId` names the leaf that was left (`root` for none), as Pi ≥ 0.87.
   */
  branchWithSummary(toId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): string {
    if (toId !== null && !this.tree.has(toId)) throw new Error(`Entry ${toId} not found`);
    const fromId = this.leafId ?? "root";
    return this.appendAt(toId, (at) => make.branchSummaryEntry(at, { fromId, summary, details, usage, fromHook }));
  }

  appendCustomEntry(customType: string, data?: unknown): string {
    return this.append(make.customEntry(this.nextPosition(), customType, data));
  }

  appendCustomMessageEntry(customType: string, content: string | UserContentBlock[], display: boolean, details?: unknown): string {
    return this.append(make.customMessageEntry(this.nextPosition(), { customType, content, display, details }));
  }

  /** A `context_edit` of `targetId` (kept as written; pig does not apply context edits yet). */
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string {
    if (!this.tree.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    return this.append(make.contextEditEntry(this.nextPosition(), targetId, replacement));
  }

  /** Sets (or, with an empty or missing label, clears) the label of `targetId`. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.tree.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    return this.append(make.labelEntry(this.nextPosition(), targetId, label ? label : undefined));
  }

  appendSessionInfo(name: string): string {
    return this.append(make.sessionInfoEntry(this.nextPosition(), name.trim()));
  }

  /** Appends the entry `build` makes as a child of `parentId`; on a failed write the leaf stays where it was. */
  private appendAt(parentId: string | null, build: (at: make.EntryPosition) => SessionEntry): string {
    const before = this.leafId;
    this.moveLeaf(parentId);
    try {
      return this.append(build(this.nextPosition()));
    } catch (error) {
      this.moveLeaf(before);
      throw error;
    }
  }

  private moveLeaf(id: string | null): void {
    if (id === null) this.session.resetLeaf();
    else this.session.branch(id);
  }
}
