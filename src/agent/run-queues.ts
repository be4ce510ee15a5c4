/**
 * The session's two queues side by side — steering and follow-ups — and the `queue_update`
 * event that tells front ends what they show. A custom message entering or leaving a queue
 * changes no display, so it sends no update (as upstream).
 */
import type { AgentMessage, UserMessage } from "../session/format.ts";
import type { PigEvent } from "./events.ts";
import { MessageQueue, type QueuedMessage, type QueueMode } from "./queue.ts";

export class RunQueues {
  readonly steering: MessageQueue;
  readonly followUps: MessageQueue;

  constructor(
    private readonly emit: (event: PigEvent) => void,
    modes: { steering?: QueueMode | undefined; followUp?: QueueMode | undefined } = {},
  ) {
    this.steering = new MessageQueue(modes.steering);
    this.followUps = new MessageQueue(modes.followUp);
  }

  /** Queues what the user sent; `shown` is what queue displays show of it. */
  enqueue(kind: "steer" | "followUp", shown: string, message: UserMessage): void {
    this.queue(kind).push({ text: shown, message });
    this.emitUpdate();
  }

  /** Queues an extension's custom message (shown nowhere). */
  enqueueCustom(kind: "steer" | "followUp", message: AgentMessage): void {
    this.queue(kind).push({ message });
  }

  /** What `queue` delivers now, per its mode. */
  take(queue: MessageQueue): AgentMessage[] {
    const taken = queue.take();
    if (taken.some((item) => item.text !== undefined)) this.emitUpdate();
    return taken.map((item) => item.message);
  }

  /** Steering, then follow-ups, taken off their queues. */
  takeAll(): AgentMessage[] {
    return [...this.take(this.steering), ...this.take(this.followUps)];
  }

  /** Every queued message, left in its queue (steering first). */
  peek(): AgentMessage[] {
    return [...this.steering.peek(), ...this.followUps.peek()];
  }

  get length(): number {
    return this.steering.length + this.followUps.length;
  }

  /** Empties both queues and returns their texts, each queue on its own. */
  clear(): { steering: string[]; followUp: string[] } {
    const steering: QueuedMessage[] = this.steering.clear();
    const followUp: QueuedMessage[] = this.followUps.clear();
    if (steering.length + followUp.length > 0) this.emitUpdate();
    const texts = (items: QueuedMessage[]) => items.flatMap((item) => (item.text !== undefined ? [item.text] : []));
    return { steering: texts(steering), followUp: texts(followUp) };
  }

  private queue(kind: "steer" | "followUp"): MessageQueue {
    return kind === "steer" ? this.steering : this.followUps;
  }

  private emitUpdate(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts, followUp: this.followUps.texts });
  }
}
