/**
 * How often a run asks the runtime for a (non-blocking) collection. Each turn leaves request
 * bodies and stream buffers behind, and without a request the heap keeps growing over a long
 * run. But a collection walks the whole live heap, which grows with the context: at a fixed pace
 * its share of a turn grows with the conversation. Spacing the requests in proportion to the
 * context keeps that share flat, and a short conversation still collects every few turns.
 */

/** The pace of a short conversation: one request every this many turns. */
export const MIN_TURNS_BETWEEN_COLLECTIONS = 10;
/** Past 10 × this many messages, one more turn between requests for each this many messages. */
export const MESSAGES_PER_TURN_OF_SPACING = 20;

/** Turns to wait between two collection requests for a context of `messages` messages. */
export function turnsBetweenCollections(messages: number): number {
  return Math.max(MIN_TURNS_BETWEEN_COLLECTIONS, Math.ceil(messages / MESSAGES_PER_TURN_OF_SPACING));
}
