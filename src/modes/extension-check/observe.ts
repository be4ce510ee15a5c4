/**
 * What `pig extension check` sees of the conversation between pig's extension host and the
 * process under check: every frame each way (method, in order) and the pings it answered, with
 * a way to wait for a state of them (never for a time) up to a limit.
 */
import type { HostObserver } from "../../extensions/host/observer.ts";

export interface Frame {
  dir: "sent" | "received";
  method: string;
  params: unknown;
}

export class FrameLog implements HostObserver {
  readonly frames: Frame[] = [];
  pongs = 0;
  private readonly waiters = new Set<() => void>();

  sent(_ids: readonly string[], method: string, params: unknown): void {
    this.frames.push({ dir: "sent", method, params });
    this.wake();
  }

  received(_ids: readonly string[], method: string, params: unknown): void {
    this.frames.push({ dir: "received", method, params });
    this.wake();
  }

  pong(): void {
    this.pongs += 1;
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves true once `check()` holds, false if it still does not after `limitMs`. */
  until(check: () => boolean, limitMs: number): Promise<boolean> {
    if (check()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        resolve(ok);
      };
      const waiter = () => {
        if (check()) done(true);
      };
      const timer = setTimeout(() => done(check()), limitMs);
      this.waiters.add(waiter);
    });
  }

  /** The events sent to the process (`event` frames), by name. */
  eventsSent(): Set<string> {
    const names = new Set<string>();
    for (const f of this.frames) if (f.dir === "sent" && f.method === "event") names.add(String((f.params as { event?: unknown }).event));
    return names;
  }

  indexOf(dir: Frame["dir"], method: string, from = 0): number {
    return this.frames.findIndex((f, i) => i >= from && f.dir === dir && f.method === method);
  }

  count(dir: Frame["dir"], method: string): number {
    return this.frames.filter((f) => f.dir === dir && f.method === method).length;
  }
}
