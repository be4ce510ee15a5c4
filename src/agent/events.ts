/**
 * The one event stream every mode renders (and, later, extensions observe). Names, fields and
 * their order are upstream Pi 0.87.1's, so `--mode json` and RPC clients see the same lines
 * (JSON and RPC write `message_update` in its wire form, see modes/wire-event.ts).
 */
import type { AssistantMessage, AssistantMessageEvent } from "../ai/types.ts";
import type { AgentMessage, SessionEntry, ToolResultMessage, Usage } from "../session/format.ts";
import type { NestedToolCalls } from "../session/message-format.ts";
import type { ToolResult } from "../tools/types.ts";

/** What the agent loop reports. */
export type LoopEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; assistantMessageEvent: AssistantMessageEvent; message: AssistantMessage }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown>; parentToolCallId?: string }
  | {
      type: "tool_execution_update";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      partialResult: ToolResult;
      parentToolCallId?: string;
    }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: ToolResult;
      isError: boolean;
      /** Milliseconds `execute` took (Pi ≥ 1.x); absent when the tool did not run (not found, invalid, blocked). */
      durationMs?: number;
      /** Set on the events of a call another tool made through `ctx.executeTool` (Pi ≥ 1.x). */
      parentToolCallId?: string;
    };

export type { NestedToolCalls };

/**
 * The loop's events as the session passes them on: `agent_end` says whether a retry of the
 * failed answer follows (`willRetry`).
 */
export type AgentEvent = Exclude<LoopEvent, { type: "agent_end" }> | { type: "agent_end"; messages: AgentMessage[]; willRetry: boolean };

export type CompactionReason = "manual" | "threshold" | "overflow";

/** What `compaction_end` reports; the stored entry is compaction's `CompactionResult`. */
export interface CompactionReport {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** An estimate of the rebuilt context right after the compaction (not a provider count). */
  estimatedTokensAfter?: number;
  /** What the summary calls cost (Pi ≥ 0.87). */
  usage?: Usage;
  details?: unknown;
}

/** Which summary a summarisation retry belongs to. */
export type SummarySource = { source: "compaction"; reason: CompactionReason } | { source: "branchSummary" };

export type SessionEvent =
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  | { type: "compaction_start"; reason: CompactionReason }
  | {
      type: "compaction_end";
      reason: CompactionReason;
      result?: CompactionReport;
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
    }
  | { type: "session_info_changed"; name: string | undefined }
  /** An extension appended an entry (`appendEntry`, a session boundary's drafts): the entry as stored. */
  | { type: "entry_appended"; entry: SessionEntry }
  | { type: "thinking_level_changed"; level: string }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  /** A summary request (compaction, branch summary) failed and is tried again after `delayMs`. */
  | { type: "summarization_retry_scheduled"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | ({ type: "summarization_retry_attempt_start" } & SummarySource)
  | { type: "summarization_retry_finished" }
  /** An extension's handler failed (`event` names which: an event name, `command`, …); what runs next goes on. */
  | { type: "extension_error"; extensionPath: string; event: string; error: string; stack?: string }
  /**
   * A prompt's run is over, with its retries, compactions and queued messages: nothing more
   * follows on its own. `aborted`: it ended because it was stopped (upstream 1.x).
   */
  | { type: "agent_settled"; aborted: boolean };

/** Why what a front end shows of the session may have changed. */
export type SessionChangeReason =
  | "new"
  | "switch"
  | "fork"
  | "clone"
  | "tree"
  | "compaction"
  | "model"
  | "thinking_level"
  | "session_name"
  | "tools";

/** Told to `AgentSession.onSessionChange` listeners (not part of the event stream clients read). */
export type SessionChange = { type: "session_changed"; reason: SessionChangeReason };

export type PigEvent = AgentEvent | SessionEvent;
