/**
 * The name front ends have long used for the session's controls. The controls are the
 * session's own (session.ts): there is one surface, one busy state and one abort.
 */
import type { AgentSession } from "./session.ts";

export type SessionController = AgentSession;
export type { SessionState, SessionStats } from "./session-report.ts";
