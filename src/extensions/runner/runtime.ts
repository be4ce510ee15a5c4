/**
 * What every extension of one runner process shares: the connection, the mirrors of host
 * state and session log, the session facts from `initialize`, and the local event bus.
 */
import type { ExtensionMode } from "../api/types.ts";
import type { LocalBus } from "./bus.ts";
import type { Peer } from "./peer.ts";
import type { ExtensionRecord } from "./record.ts";
import type { SessionMirror } from "./session-mirror.ts";
import type { StateMirror } from "./state.ts";

export interface Runtime {
  peer: Peer;
  state: StateMirror;
  session: SessionMirror;
  bus: LocalBus;
  mode: ExtensionMode;
  hasUI: boolean;
  flags: Record<string, boolean | string>;
  records: Map<string, ExtensionRecord>;
  /** Sends what `record` registered since the last time (after its factory has finished). */
  flushRegistrations(record: ExtensionRecord): void;
}

export const NOT_INITIALIZED = "Extension runtime not initialized. Action methods cannot be called during extension loading.";

/** Pi's action methods throw while the factory runs. */
export function requireActive(record: ExtensionRecord): void {
  if (!record.active) throw new Error(NOT_INITIALIZED);
}

/** Fire-and-forget host calls report failures on stderr (the extension's log) instead of crashing. */
export function fireAndForget(runtime: Runtime, record: ExtensionRecord, method: string, params: unknown): void {
  runtime.peer.request(method, params).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`[${record.name}] ${method}: ${message}\n`);
  });
}
