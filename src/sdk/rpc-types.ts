/**
 * What `pig --mode rpc` writes and answers, as a client reads it: the events of `--mode json`
 * (modes/wire-event.ts) plus the lines only RPC has, and the data of each command's response.
 * Types only, from the modules that produce them; docs/rpc.md describes the protocol.
 */
import type { CompactionReport } from "../agent/events.ts";
import type { SessionState, SessionStats } from "../agent/session-report.ts";
import type { InputDisposition } from "../agent/submit.ts";
import type { Model } from "../ai/types.ts";
import type { Command, CommandType } from "../modes/rpc-command-schema.ts";
import type { WireTreeNode } from "../modes/rpc-entries.ts";
import type { WireEvent } from "../modes/wire-event.ts";
import type { AgentMessage, SessionEntry, ThinkingLevel } from "../session/format.ts";

export type { Command, CommandType, CompactionReport, InputDisposition, SessionState, SessionStats };

/** An image sent with a prompt, a steer or a follow-up. */
export type ImageContent = {
  type: "image";
  /** base64 */
  data: string;
  mimeType: string;
};

/** pig asks the client (an extension's dialog) or tells it (a notice, a status line); docs/rpc.md, "Extension UI". */
export interface ExtensionUiRequest {
  type: "extension_ui_request";
  id: string;
  method: "select" | "confirm" | "input" | "editor" | "notify" | "setStatus" | "setWidget" | "setTitle" | "set_editor_text";
  [field: string]: unknown;
}

/** Every line pig writes that is not a response. */
export type RpcEvent =
  | WireEvent
  /** A prompt pig accepted and then could not run. */
  | { type: "prompt_error"; error: string }
  /** A `bash` command's output as it arrives, with the command's `id`. */
  | { type: "bash_execution_update"; id?: unknown; delta: string }
  | ExtensionUiRequest;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A command as the client sends it: its fields without the `id`, which the client sets. */
export type OutgoingCommand = DistributiveOmit<Command, "id">;

/** A response line. */
export type RpcResponse =
  | { type: "response"; id?: unknown; command: string; success: true; data?: unknown }
  | { type: "response"; id?: unknown; command: string; success: false; error: string };

/** A bash command's result (`bash`). */
export interface BashResult {
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

/** One node of `get_tree`. */
export type SessionTreeNode = WireTreeNode;

/** An entry of `get_commands`. */
export interface SlashCommandInfo {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo?: unknown;
}

export type { AgentMessage, Model, SessionEntry, ThinkingLevel };
