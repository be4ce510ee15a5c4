/**
 * `pi.events`: a bus shared by every extension. As upstream's (an EventEmitter), `emit` calls the
 * listeners of this process synchronously, in the order they were added, before it returns: a
 * request answered over the bus — the listener emits on a reply channel, or fills in the payload —
 * has its answer when `emit` returns. The emit is then relayed by the host to the other extension
 * processes (`bus.emit` out, `bus.message` in), where it arrives later, as a copy.
 */
import type { EventBus } from "../api/types.ts";

type Handler = (data: unknown) => unknown;

function logFailure(channel: string, error: unknown): void {
  process.stderr.write(`Event handler error (${channel}): ${error instanceof Error ? error.message : String(error)}\n`);
}

export class LocalBus {
  private readonly channels = new Map<string, Set<Handler>>();

  constructor(private readonly forward: (channel: string, data: unknown) => void) {}

  /**
   * Calls this process's listeners now. A listener's error (thrown, or its promise's rejection) is
   * logged the way upstream logs it and never reaches the emitter or stops the other listeners.
   */
  deliver(channel: string, data: unknown): void {
    for (const handler of [...(this.channels.get(channel) ?? [])]) {
      try {
        const result = handler(data);
        if (result instanceof Promise) result.catch((error: unknown) => logFailure(channel, error));
      } catch (error) {
        logFailure(channel, error);
      }
    }
  }

  api(): EventBus {
    return {
      emit: (channel, data) => {
        this.deliver(channel, data);
        this.forward(channel, data);
      },
      on: (channel, handler) => {
        let set = this.channels.get(channel);
        if (!set) this.channels.set(channel, (set = new Set()));
        // Each `on` adds a listener, as an EventEmitter's does, even for a function added before.
        const listener: Handler = (data) => handler(data);
        set.add(listener);
        return () => set.delete(listener);
      },
    };
  }
}
