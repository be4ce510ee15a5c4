/**
 * The model's context: the active branch of the session as messages. The only place that
 * changes the array — the loop appends through it, a retry or an overflow recovery drops the
 * failed answer, a compaction or a move in the tree rebuilds it from the file. A run in
 * progress holds the array itself, so it is always changed in place.
 */
import { resolveItems } from "../session/context.ts";
import type { AgentMessage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";

/** Messages read per task while the context is built in the background: a few ms each for a long session's large entries. */
const SLICE = 64;

/** What the loop may do to the context. */
export interface LoopContext {
  readonly messages: readonly AgentMessage[];
  append(message: AgentMessage): void;
}

export class Conversation implements LoopContext {
  /** Built from the file when first needed: opening a long session does not wait for it. */
  private value: AgentMessage[] | undefined;
  /** `freshFrom` as planned from the file; forgotten whenever the context is built again. */
  private fresh: number | undefined;
  /** Changes other than appends (a drop, a rebuild, a reset): what was read from a prefix of the messages may no longer hold. */
  private rewrites = 0;

  constructor(private readonly store: () => SessionStore) {}

  get messages(): readonly AgentMessage[] {
    this.value ??= this.store().buildContext().messages;
    return this.value;
  }

  /**
   * Builds what `messages` would, a slice of messages per task, so that a long session's context
   * is read while pig answers keys. `next` ends a task, and says whether to go on (not once pig is
   * leaving and the file closes). The first use of `messages` meanwhile builds it at once; what
   * was read is then dropped, as it is when the session is switched, the context rebuilt or the
   * branch moved.
   */
  async buildInSlices(next: () => Promise<boolean>): Promise<void> {
    if (this.value) return;
    const store = this.store();
    const leaf = store.leafId;
    const rewrites = this.rewrites;
    const stillWanted = () => this.value === undefined && this.store() === store && store.leafId === leaf && this.rewrites === rewrites;
    const items = store.planContextAfresh().items;
    const messages: AgentMessage[] = [];
    for (let i = 0; i < items.length; i += SLICE) {
      messages.push(...resolveItems(items.slice(i, i + SLICE), store.readEntry));
      if (!(await next()) || !stillWanted()) return;
    }
    this.value = messages;
  }

  /**
   * How many messages the context holds, without reading them: until the context is built, the
   * plan's items (one per message; the load checked every line already) are counted.
   */
  get count(): number {
    return this.value?.length ?? this.store().planContext().items.length;
  }

  /**
   * Index of the first message written after the branch's latest compaction (0 without one).
   * Only a rebuild from the file moves it (a compaction, a move in the tree): messages appended
   * since come after it. Asked before every request, so it is planned once, not per turn.
   */
  get freshFrom(): number {
    this.fresh ??= this.store().planContext().freshFrom;
    return this.fresh;
  }

  /** How many times the messages changed other than by an append (see `rewrites`). */
  get rewriteCount(): number {
    return this.rewrites;
  }

  append(message: AgentMessage): void {
    (this.messages as AgentMessage[]).push(message);
  }

  /** Takes `message` off the end (a failed answer that is retried); false when it is not the last. */
  dropLast(message: AgentMessage): boolean {
    const messages = this.messages as AgentMessage[];
    if (messages[messages.length - 1] !== message) return false;
    messages.pop();
    this.rewrites++;
    return true;
  }

  /** Rebuilds the context from the file, in place (after a compaction or a move in the tree). */
  reload(): void {
    this.fresh = undefined;
    this.rewrites++;
    if (!this.value) return;
    this.value.splice(0, this.value.length, ...this.store().buildContext().messages);
  }

  /** Forgets the context (another session file): it is built again when next needed. */
  reset(): void {
    this.rewrites++;
    this.value = undefined;
    this.fresh = undefined;
  }
}
