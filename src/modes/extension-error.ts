/** How pig words a failed extension handler for people (RPC and JSON clients get the event itself). */
import type { PigEvent } from "../agent/events.ts";

export type ExtensionErrorEvent = Extract<PigEvent, { type: "extension_error" }>;

/** One line: which extension, in what, and what it said. */
export function extensionErrorText(event: Pick<ExtensionErrorEvent, "extensionPath" | "event" | "error">): string {
  return `Extension error (${event.extensionPath}, ${event.event}): ${event.error}`;
}
