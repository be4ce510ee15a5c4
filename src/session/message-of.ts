/** The message of a `message` entry, when it has one with a role (a session file is read as it is). */
import type { AgentMessage, SessionEntry } from "./format.ts";

export function messageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type !== "message") return undefined;
  const message = (entry as { message?: unknown }).message;
  return typeof message === "object" && message !== null && typeof (message as { role?: unknown }).role === "string"
    ? (message as AgentMessage)
    : undefined;
}
