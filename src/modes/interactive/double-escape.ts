/**
 * Two quick Escapes on an idle, empty prompt run `doubleEscapeAction`. Pure: the app passes
 * the clock and whether the prompt is empty, and keeps the returned state.
 */

/** Two Escapes within this many ms count as one double Escape. */
export const DOUBLE_ESCAPE_MS = 500;

export interface EscapeState {
  /** When the last Escape that could start a double Escape was pressed. */
  readonly armedAt?: number;
}

/** One Escape on an idle prompt: whether it completes a double Escape, and the next state. */
export function escapeTap(state: EscapeState, now: number, promptEmpty: boolean): { fire: boolean; state: EscapeState } {
  const double = state.armedAt !== undefined && now - state.armedAt <= DOUBLE_ESCAPE_MS;
  if (double && promptEmpty) return { fire: true, state: {} };
  // A draft disarms: Escape while writing never starts /tree or /fork.
  return { fire: false, state: promptEmpty && !double ? { armedAt: now } : {} };
}
