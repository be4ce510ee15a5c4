/**
 * The deadline on `$/part` streams: one left open for the limit without a part is dropped, so a
 * peer that starts a long message and stops never holds the answer (or the memory) forever. Like
 * the liveness pings, it runs only while there is something to wait for: an open stream.
 */
import type { PartAssembler, StalledStream } from "./framing.ts";

export class PartStreamWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly parts: PartAssembler,
    private limitMs: number,
    private readonly onStalled: (stalled: StalledStream, limitMs: number) => void,
  ) {}

  setLimit(ms: number): void {
    this.limitMs = ms;
    this.rearm();
  }

  /** Call after every part: the timer follows the stream that has waited longest. */
  rearm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const oldest = this.parts.oldestPartAt;
    if (oldest === undefined || this.limitMs <= 0 || this.stopped) return;
    this.timer = setTimeout(
      // Parts that arrived while pig was busy are read first (I/O comes before setImmediate).
      () => setImmediate(() => this.expire()),
      Math.max(0, oldest + this.limitMs - performance.now()),
    );
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private expire(): void {
    if (this.stopped) return;
    for (const stalled of this.parts.dropStalled(performance.now() - this.limitMs)) this.onStalled(stalled, this.limitMs);
    this.rearm();
  }
}
