/**
 * Lazy session-log replication: a process hears nothing of the log until it calls
 * `session.subscribe`; then it gets one snapshot and, after that, only what changes. The port
 * reports changes synchronously, so a snapshot taken in the same turn as the subscription can
 * neither miss an append nor repeat one.
 */
import type { SessionSnapshot } from "../protocol.ts";
import type { HostSessionPort, SessionLogChange, SessionLogSnapshot } from "./session-port.ts";

export interface ReplicaSink {
  /** Still the same process life that subscribed. */
  alive(): boolean;
  notify(method: string, params: unknown): void;
}

export class Replicator {
  /** One sink per subscriber key (a process): subscribing again replaces, never doubles, the stream. */
  private readonly sinks = new Map<object, ReplicaSink>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly port: HostSessionPort) {}

  /** `file`: the subscriber reads the entries already on disk from the file itself (see the port's `fileSnapshot`). */
  subscribe(key: object, sink: ReplicaSink, options: { file?: boolean } = {}): SessionSnapshot {
    // The port is only listened to once someone wants the log.
    this.unsubscribe ??= this.port.onLog((change) => this.forward(change));
    this.sinks.set(key, sink);
    return toWire(options.file && this.port.fileSnapshot ? this.port.fileSnapshot() : this.port.snapshot());
  }

  get subscriberCount(): number {
    return this.sinks.size;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.sinks.clear();
  }

  private forward(change: SessionLogChange): void {
    for (const [key, sink] of [...this.sinks]) {
      if (!sink.alive()) {
        this.sinks.delete(key);
        continue;
      }
      switch (change.type) {
        case "appended":
          if (change.entries.length > 0) sink.notify("session.appended", { entries: change.entries, leafId: change.leafId });
          break;
        case "leaf":
          sink.notify("session.leaf", { leafId: change.leafId });
          break;
        case "replaced":
          sink.notify("session.replaced", toWire(change.snapshot));
          break;
      }
    }
  }
}

function toWire(s: SessionLogSnapshot): SessionSnapshot {
  return {
    header: s.header,
    entries: s.entries,
    leafId: s.leafId,
    ...(s.sessionFile ? { sessionFile: s.sessionFile } : {}),
    ...(s.file ? { file: { path: s.file.path, offset: s.file.offset, length: s.file.length, count: s.file.count } } : {}),
  };
}
