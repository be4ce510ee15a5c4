/**
 * A window onto what the host and its extension processes say to each other, for `pig extension
 * check`: each frame sent and received (method and params) and each liveness ping answered. pig itself runs without one.
 */
export interface HostObserver {
  /** A request or notification sent to the process holding `ids`. */
  sent?(ids: readonly string[], method: string, params: unknown): void;
  /** A request or notification the process holding `ids` sent (after the handshake). */
  received?(ids: readonly string[], method: string, params: unknown): void;
  /** A liveness ping the process holding `ids` answered. */
  pong?(ids: readonly string[]): void;
}
