/**
 * The steering and follow-up queues: messages typed while the agent runs, delivered after the
 * current turn (steering) or when the agent would stop (follow-up), one at a time or all at once.
 * An extension's custom message (`sendMessage` while the agent runs) travels in them too, as
 * upstream's does: it is delivered like the others but not shown in queue displays.
 */
import type { AgentMessage, UserMessage } from "../session/format.ts";

export type QueueMode = "all" | "one-at-a-time";

/** The mode of a queue the settings say nothing about (upstream's). */
export const DEFAULT_QUEUE_MODE: QueueMode = "one-at-a-time";

export interface QueuedMessage {
  /** What the user typed, shown in queue displays and given back on abort; none for a custom message. */
  text?: string;
  message: AgentMessage;
}

export class MessageQueue {
  private items: QueuedMessage[] = [];

  constructor(public mode: QueueMode = DEFAULT_QUEUE_MODE) {}

  push(item: QueuedMessage): void {
    this.items.push(item);
  }

  /** The messages to deliver now, per the mode. */
  take(): QueuedMessage[] {
    if (this.items.length === 0) return [];
    return this.mode === "all" ? this.items.splice(0) : this.items.splice(0, 1);
  }

  /** Empties the queue, returning what it held. */
  clear(): QueuedMessage[] {
    return this.items.splice(0);
  }

  /** The queued messages, left in the queue. */
  peek(): AgentMessage[] {
    return this.items.map((item) => item.message);
  }

  get texts(): string[] {
    return this.items.flatMap((item) => (item.text !== undefined ? [item.text] : []));
  }

  get length(): number {
    return this.items.length;
  }
}

/**
 * A user message sending `text`. `typed` is what the user typed, kept as `typedText` when it is
 * not what is sent (a template or skill expanded, files attached): the words the session's title
 * is made of (session/title.ts). Providers get the content only.
 */
export function userMessage(text: string, images: readonly { type: "image"; data: string; mimeType: string }[] = [], typed?: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }, ...images], ...(typed !== undefined && typed !== text ? { typedText: typed } : {}), timestamp: Date.now() };
}
