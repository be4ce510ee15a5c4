/** Checks shared by commands that replace or move the session. */
import type { InteractiveHost } from "../host.ts";

/**
 * True (after saying so) when the agent is running: the session cannot be replaced mid-turn,
 * and it is better to say so before a picker opens than after a choice was made.
 */
export function refuseWhileRunning(host: InteractiveHost, what: string): boolean {
  if (!host.session.isStreaming && !host.session.isCompacting) return false;
  host.warn(`Cannot ${what} while the agent is running. Wait for it to finish or press Escape.`);
  return true;
}
