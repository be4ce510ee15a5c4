/**
 * What the extension host needs from the running agent session, and nothing more. Whoever wires
 * the host into the runtime implements it; the host never reaches into the agent itself, so it
 * can be tested against a fake and the agent can change behind this interface.
 *
 * Session lines are exact text: the host forwards them byte for byte, never re-serialising.
 */
import type { ThinkingLevel } from "../../session/format.ts";
import type { ContextUsage, SendMessageParams, SendUserMessageParams, StateParams, ToolsCallResult } from "../protocol.ts";

export interface SessionLogSnapshot {
  /** The first line of the session file, without its LF. */
  header: string;
  /** Every entry line after the header, in file order, without LFs. */
  entries: string[];
  leafId: string | null;
  sessionFile?: string;
  /**
   * Set in a snapshot from `fileSnapshot()`: the header and the first `count` entries are the
   * lines of `path` in bytes [offset, offset + length), and `entries` holds only the entries after them.
   */
  file?: SessionLogFileRange;
}

export interface SessionLogFileRange {
  /** Absolute path of the session file. */
  path: string;
  offset: number;
  length: number;
  count: number;
}

export type SessionLogChange =
  | { type: "appended"; entries: string[]; leafId: string | null }
  | { type: "leaf"; leafId: string | null }
  | { type: "replaced"; snapshot: SessionLogSnapshot };

export type SessionState = StateParams;

export interface HostSessionPort {
  /** The current session log. Must be consistent with `onLog`: nothing appended between the two is lost or repeated. */
  snapshot(): SessionLogSnapshot;
  /**
   * The same snapshot with the entries already on disk named by their place in the file (`file`)
   * instead of sent as text. Optional: without it, `session.subscribe {file: true}` gets `snapshot()`.
   */
  fileSnapshot?(): SessionLogSnapshot;
  /** Called synchronously after each change is written; returns an unsubscribe function. */
  onLog(listener: (change: SessionLogChange) => void): () => void;
  /** The small state every extension keeps a copy of (no log data). */
  state(): SessionState;
  /** Called whenever a field of `state()` may have changed. */
  onStateChange(listener: () => void): () => void;

  sendMessage(params: SendMessageParams): Promise<void>;
  sendUserMessage(params: SendUserMessageParams): Promise<void>;
  appendEntry(customType: string, data: unknown): Promise<void>;
  setName(name: string): Promise<void>;
  /** Throws `Entry <id> not found` for an unknown entry. */
  setLabel(entryId: string, label: string | undefined): Promise<void>;
  setActiveTools(names: string[]): void;
  /**
   * Runs the tool `name` for the running tool call `toolCallId` (upstream's `ctx.executeTool`);
   * a tool's failure is an error result, never a throw.
   */
  callTool(toolCallId: string, name: string, args: unknown, signal: AbortSignal, onUpdate: (partial: { content: unknown[]; details?: unknown }) => void): Promise<ToolsCallResult>;
  /** False when the model has no configured credentials. */
  setModel(provider: string, id: string): Promise<boolean>;
  setThinkingLevel(level: ThinkingLevel): void;
  compact(customInstructions: string | undefined): Promise<void>;
  abort(): void;
  shutdown(): void;
  waitForIdle(): Promise<void>;
  contextUsage(): ContextUsage | undefined;
  /** The prompt's structured inputs for the tools active now (upstream 1.x's `systemPromptOptions`); a port without a session has none. */
  systemPromptOptions?(): Record<string, unknown>;

  // Command-context calls: the host allows them only while a command of the caller runs.
  newSession(options: { parentSession?: string }): Promise<{ cancelled: boolean }>;
  fork(entryId: string, options: { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
  navigateTree(
    targetId: string,
    options: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string },
  ): Promise<{ cancelled: boolean }>;
  switchSession(path: string): Promise<{ cancelled: boolean }>;
  reload(): Promise<void>;
}
