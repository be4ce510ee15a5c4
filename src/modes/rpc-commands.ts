/**
 * RPC commands: what each one does (their request shapes are in rpc-command-schema.ts). Every
 * command answers with one `response` line carrying the request's `id`; a command that fails
 * answers `success: false` with the error's text.
 */
import type { InputDisposition } from "../agent/submit.ts";
import type { AgentSession } from "../agent/session.ts";
import type { Command } from "./rpc-command-schema.ts";

export { CommandSchema, COMMAND_TYPES, type Command, type CommandType } from "./rpc-command-schema.ts";

/** What a command returns: its `data` (undefined: none), or an error to report. */
export type CommandResult = { data?: unknown };

export interface CommandContext {
  session: AgentSession;
  /** Starts a prompt and resolves once it is accepted (handled, queued or running) with where it went, not when it ends. */
  startPrompt(text: string, images: { type: "image"; data: string; mimeType: string }[] | undefined, behavior?: "steer" | "followUp"): Promise<InputDisposition>;
  compact(customInstructions?: string): Promise<unknown>;
  navigateTree(command: Extract<Command, { type: "navigate_tree" }>): Promise<unknown>;
  stats(): unknown;
  exportHtml(outputPath?: string): string;
  commands(): unknown[];
  /** pig's `get_extensions`: each loaded extension's process and state. */
  extensions(): unknown[];
  entries(since?: string): unknown;
  tree(): unknown;
  abortRetry(): void;
  /** Throws when `text` may not be queued (an extension command). */
  assertQueueable(text: string): void;
  /** The run's Piglets: `get_piglets` lists them, `set_piglet` switches (throws for an unknown one). */
  piglets?: {
    list(): unknown;
    switch(name: string): Promise<unknown>;
  };
  /** Writes an event line of the command's own (a `bash` command's output as it arrives). */
  emit(event: Record<string, unknown>): void;
}

export async function runCommand(command: Command, ctx: CommandContext): Promise<CommandResult> {
  const { session } = ctx;
  switch (command.type) {
    case "prompt":
      // Upstream 1.x says where the prompt went; 0.87.1's clients ignore the data.
      return { data: { disposition: await ctx.startPrompt(command.message, command.images, command.streamingBehavior) } };
    case "steer":
    case "follow_up":
      ctx.assertQueueable(command.message);
      // As upstream 1.x: the input hook may take it ("handled") or rewrite it; else it is expanded and
      // queued ("queued"), and while idle it goes with the next run, right after its prompt.
      return {
        data: {
          disposition: await session.queueInput(command.type === "steer" ? "steer" : "followUp", command.message, {
            source: "rpc",
            ...(command.images ? { images: command.images } : {}),
          }),
        },
      };
    case "abort":
      // As upstream: queued messages stay for the next run (`clear_queue` takes them off).
      await session.abort({ keepQueued: true });
      return {};
    case "clear_queue":
      return { data: session.clearQueue() };
    case "new_session":
      return { data: await session.newSession(command.parentSession ? { parentSession: command.parentSession } : {}) };
    case "get_state":
      return { data: session.state() };
    case "set_piglet":
      if (!ctx.piglets) throw new Error("Piglets are not available in this run");
      // Its extensions may be replaced: never under a running turn.
      if (session.isStreaming || session.isCompacting) throw new Error("cannot switch Piglet while the agent is running; wait for agent_end or abort");
      return { data: await ctx.piglets.switch(command.name) };
    case "get_piglets":
      return { data: ctx.piglets?.list() ?? { piglets: [] } };
    case "get_messages":
      return { data: { messages: session.messages } };
    case "set_model":
      return { data: session.setModel(command.provider, command.modelId) };
    case "cycle_model":
      return { data: session.cycleModel() };
    case "get_available_models":
      return { data: { models: session.availableModels() } };
    case "set_thinking_level":
      session.setThinkingLevel(command.level);
      return {};
    case "cycle_thinking_level":
      return { data: session.cycleThinkingLevel() };
    case "get_available_thinking_levels":
      return { data: { levels: session.availableThinkingLevels() } };
    case "set_steering_mode":
      session.setSteeringMode(command.mode);
      return {};
    case "set_follow_up_mode":
      session.setFollowUpMode(command.mode);
      return {};
    case "compact":
      return { data: await ctx.compact(command.customInstructions) };
    case "set_auto_compaction":
      session.setAutoCompaction(command.enabled);
      return {};
    case "set_auto_retry":
      session.setAutoRetry(command.enabled);
      return {};
    case "abort_compaction":
      // Stops a compaction or branch summary and nothing else (`abort` stops the run too).
      session.abortCompaction();
      return {};
    case "abort_retry":
      ctx.abortRetry();
      return {};
    case "bash": {
      // The output streams as it comes, carrying the command's id; the response has the (possibly cut) whole.
      const id = command.id;
      const { message: _recorded, ...result } = await session.bash(command.command, {
        exclude: command.excludeFromContext ?? false,
        onOutput: (delta) => ctx.emit({ type: "bash_execution_update", ...(id !== undefined ? { id } : {}), delta }),
      });
      return { data: result };
    }
    case "abort_bash":
      session.abortBash();
      return {};
    case "get_session_stats":
      return { data: ctx.stats() };
    case "export_html":
      return { data: { path: ctx.exportHtml(command.outputPath) } };
    case "switch_session":
      return { data: await session.switchSession(command.sessionPath) };
    case "fork":
      return { data: await session.fork(command.entryId) };
    case "clone":
      return { data: await session.clone() };
    case "get_fork_messages":
      return { data: { messages: session.forkMessages() } };
    case "get_entries":
      return { data: ctx.entries(command.since) };
    case "get_last_assistant_text": {
      const text = session.lastAssistantText();
      return { data: text === undefined ? {} : { text } };
    }
    case "set_session_name":
      session.setSessionName(command.name);
      return {};
    case "get_commands":
      return { data: { commands: ctx.commands() } };
    case "get_extensions":
      return { data: { extensions: ctx.extensions() } };
    case "navigate_tree":
      return { data: await ctx.navigateTree(command) };
    case "set_label":
      session.setLabel(command.entryId, command.label);
      return {};
    case "get_tree":
      return { data: ctx.tree() };
  }
}
