/** The host's clocks, in one place so tests can run them fast. */

export interface HostTiming {
  pingIntervalMs: number;
  livenessTimeoutMs: number;
  /** A `$/part` stream from an extension left open this long without a part is dropped. */
  partTimeoutMs: number;
  /** From spawn to every extension of the process being ready. */
  launchTimeoutMs: number;
  /** Delays before the 1st, 2nd, 3rd… restart. */
  restartBackoffMs: readonly number[];
  maxRestarts: number;
  restartWindowMs: number;
  shutdownGraceMs: number;
  /** Overrides the per-event deadlines of protocol-events.ts (tests). */
  eventDeadlineMs?: number;
}

export const DEFAULT_TIMING: HostTiming = {
  pingIntervalMs: 1000,
  livenessTimeoutMs: 3000,
  partTimeoutMs: 10_000,
  launchTimeoutMs: 10_000,
  restartBackoffMs: [250, 1000, 4000],
  maxRestarts: 3,
  restartWindowMs: 60_000,
  shutdownGraceMs: 1000,
};
