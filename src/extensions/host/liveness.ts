/**
 * The ping watch over one connection: it runs only while the host waits for that extension
 * process, because an idle extension owes nobody an answer. A process that does not answer a
 * ping in time is declared hung, whatever else it is doing.
 */

export interface LivenessOptions {
  intervalMs: number;
  timeoutMs: number;
  ping(): Promise<unknown>;
  onHung(): void;
}

export class LivenessWatch {
  private waiting = 0;
  private interval: ReturnType<typeof setInterval> | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly options: LivenessOptions) {}

  /** Marks one request as open; call the returned function when it settles. */
  begin(): () => void {
    if (this.stopped) return () => {};
    this.waiting += 1;
    if (this.waiting === 1) this.interval = setInterval(() => this.tick(), this.options.intervalMs);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.waiting -= 1;
      if (this.waiting === 0) this.idle();
    };
  }

  stop(): void {
    this.stopped = true;
    this.idle();
  }

  private idle(): void {
    if (this.interval) clearInterval(this.interval);
    this.interval = undefined;
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  private tick(): void {
    if (this.deadline || this.stopped) return;
    const deadline = setTimeout(() => {
      this.deadline = undefined;
      if (this.stopped) return;
      this.stop();
      this.options.onHung();
    }, this.options.timeoutMs);
    this.deadline = deadline;
    this.options.ping().then(
      () => {
        if (this.deadline === deadline) {
          clearTimeout(deadline);
          this.deadline = undefined;
        }
      },
      // A failed ping means the connection is gone; the close handler deals with that.
      () => {},
    );
  }
}
