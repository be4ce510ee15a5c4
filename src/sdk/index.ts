/**
 * What `pig-coding-agent` exports to programs on Node (≥ 20) and Bun: the RPC client that drives
 * the installed `pig --mode rpc`, `createAgentSession` over it, their errors, and the protocol's
 * types. Node's standard library only at run time.
 */
export { RpcClient, type PromptOptions, type RpcClientOptions, type RpcEventListener, type UiAnswer } from "./rpc-client.ts";
export { RpcCommandError, RpcConnectionError } from "./rpc-connection.ts";
export { PromptError, type PromptFailureKind, type PromptResult } from "./prompt-failure.ts";
export { findPigBinary } from "./find-binary.ts";
export { createAgentSession, sessionArgs, type RpcSession, type RpcSessionOptions } from "./rpc-session.ts";
export type { CreateAgentSessionOptions } from "./session-options.ts";
export type {
  AgentMessage,
  BashResult,
  Command,
  CommandType,
  CompactionReport,
  ExtensionUiRequest,
  ImageContent,
  InputDisposition,
  Model,
  OutgoingCommand,
  RpcEvent,
  RpcResponse,
  SessionEntry,
  SessionState,
  SessionStats,
  SessionTreeNode,
  SlashCommandInfo,
  ThinkingLevel,
} from "./rpc-types.ts";
