/**
 * `pi.events`: a bus shared by every extension. Extensions in this process hear each other
 * directly; the host relays to other processes (`bus.emit` out, `bus.message` in).
 */
import type { EventBus } from "../api/types.ts";

type Handler = (data: unknown) => void;

export class LocalBus {
  private readonly channels = new Map<string, Set<Handler>>();

  constructor(private readonly forward: (channel: string, data: unknown) => void) {}

  /** Delivers to local handlers; errors are logged the way upstream logs them, never thrown. */
  deliver(channel: string, data: unknown): void {
    for (const handler of [...(this.channels.get(channel) ?? [])]) {
      Promise.resolve()
        .then(() => handler(data))
        .catch((error: unknown) => {
          process.stderr.write(`Event handler error (${channel}): ${error instanceof Error ? error.message : String(error)}\n`);
        });
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
        set.add(handler);
        return () => set.delete(handler);
      },
    };
  }
}
