/**
 * The system prompt of a run: `before_agent_start` may replace it (a whole prompt) or edit its
 * structured inputs (upstream 1.x's `systemPromptOptions`) for that run; the run declares it in
 * the transcript (the loadout update) before its messages; while it runs, it is what
 * `ctx.getSystemPrompt()` returns. After the run the session's own prompt holds again.
 */
import type { SystemPromptOptions } from "../resources/system-prompt-options.ts";
import type { CustomMessage, SystemMessage, ToolDeclaration } from "../session/format.ts";
import { currentSystemAfter, currentSystemMessage, loadoutUpdateFrom, systemPromptText, type SystemSeen } from "../session/system-messages.ts";
import type { AnyTool } from "../tools/types.ts";
import { sameObjects } from "../util/same-start.ts";
import type { Activity } from "./activity.ts";
import type { AttachedExtensions } from "./attached-extensions.ts";
import type { Conversation } from "./conversation.ts";
import type { RunTrigger } from "./hooks.ts";
import type { PromptOptionsPort } from "./session-options.ts";
import type { ToolRegistry } from "./tool-registry.ts";

export interface RunPromptParts {
  activity: Activity;
  conversation: Conversation;
  extensions: AttachedExtensions;
  tools: ToolRegistry;
}

export interface RunPromptSetup {
  /** The system prompt for the current tools, as named sections. */
  systemSections(tools: readonly AnyTool[]): Record<string, string>;
  promptOptions: PromptOptionsPort;
}

export class RunPrompt {
  /** A whole prompt a hook chose for the run (returned `systemPrompt`, or `forceSystemPrompt`). */
  private forcedPrompt: string | undefined;
  /** The prompt's inputs as a hook edited them for the run. */
  private edited: SystemPromptOptions | undefined;
  /** The system prompt of the run in progress, as declared. */
  private current: string | undefined;
  /** The context's system message as last replayed, and the conversation's rewrites then. */
  private seen: { rewrites: number; system: SystemSeen } | undefined;
  /**
   * The inputs of the last loadout check that found nothing to declare. The check runs before
   * every request of a run; while the context's system message, the sections (the very object
   * systemSections gave) and the active tools stay the same, its answer does too.
   */
  private declared: { system: SystemMessage | undefined; sections: Readonly<Record<string, string>>; tools: readonly AnyTool[] } | undefined;

  constructor(
    private readonly parts: RunPromptParts,
    private readonly setup: RunPromptSetup,
  ) {}

  /** Whether a run must wait for `before_agent_start` before it starts. */
  get hooked(): boolean {
    const { extensions } = this.parts;
    return extensions.hooked && extensions.hooks.listens("before_agent_start");
  }

  /** The prompt a hook forced on the run, if one did (sent instead of the declared one). */
  get forced(): string | undefined {
    return this.forcedPrompt;
  }

  /** The system prompt now: the run's while one runs, otherwise the one the session declares. */
  get systemPrompt(): string {
    return this.current ?? systemPromptText(this.currentSystem());
  }

  /** The context's current system message, replaying only what was appended since it was last asked for (see currentSystemAfter). */
  currentSystem(): SystemMessage | undefined {
    const { conversation } = this.parts;
    const messages = conversation.messages;
    const rewrites = conversation.rewriteCount;
    const system = currentSystemAfter(this.seen?.rewrites === rewrites ? this.seen.system : undefined, messages);
    this.seen = { rewrites, system };
    return system.message;
  }

  /** A new run starts with the session's prompt, until its hooks say otherwise. */
  forget(): void {
    this.forcedPrompt = undefined;
    this.edited = undefined;
  }

  /** The prompt's structured inputs for the tools active now (upstream's `getSystemPromptOptions()`). */
  options(): SystemPromptOptions {
    const { tools } = this.parts;
    return this.setup.promptOptions.of(tools.active, tools.all().map((registered) => registered.tool));
  }

  /**
   * `before_agent_start` for the run `trigger` starts: the custom messages its handlers add, or
   * undefined when the prompt was aborted while they worked. The system prompt they chose, or
   * the inputs they edited, hold for that run.
   */
  async beforeRun(trigger: RunTrigger): Promise<CustomMessage[] | undefined> {
    const { activity, extensions } = this.parts;
    const update = this.loadoutUpdate();
    const messages = this.parts.conversation.messages;
    const systemPrompt = systemPromptText(currentSystemMessage(update ? [...messages, update] : messages));
    const systemPromptOptions = this.options();
    // Under the prompt's own signal (no run exists yet): an abort ends the hook and the prompt with it.
    const hooks = extensions.hooks;
    const { hooked, aborted } = await activity.during("prompt", async (signal) => {
      const result = await hooks.beforeAgentStart({ ...trigger, systemPrompt, systemPromptOptions }, signal);
      return { hooked: result, aborted: signal.aborted };
    });
    if (aborted) return undefined;
    const edited = hooked?.systemPromptOptions;
    if (edited) this.useOptions(edited);
    const forced = hooked?.systemPrompt || edited?.forceSystemPrompt;
    if (forced) this.forcedPrompt = forced;
    return (hooked?.messages ?? []).map((m): CustomMessage => ({ ...m, role: "custom", timestamp: Date.now() }) as CustomMessage);
  }

  /**
   * The system message that declares the prompt and tools pig has now, when the context does not
   * declare them already (a new session, a session Pi wrote, tools or resources that changed).
   */
  loadoutUpdate(): SystemMessage | undefined {
    const tools = this.parts.tools.active;
    const sections = this.edited ? this.setup.promptOptions.sections(this.edited) : this.setup.systemSections(tools);
    const system = this.currentSystem();
    const last = this.declared;
    if (last && last.system === system && last.sections === sections && sameObjects(tools, last.tools)) {
      return undefined;
    }
    const update = loadoutUpdateFrom(system, sections, toolDeclarations(tools), Date.now());
    this.declared = update ? undefined : { system, sections, tools };
    return update;
  }

  /** The run starts: its declaration (to go ahead of its messages), and the prompt it runs with from now on. */
  declare(): SystemMessage | undefined {
    const update = this.loadoutUpdate();
    const messages = this.parts.conversation.messages;
    this.current = this.forcedPrompt ?? systemPromptText(update ? currentSystemMessage([...messages, update]) : this.currentSystem());
    return update;
  }

  /** The run is over: the session's own prompt holds again. */
  end(): void {
    this.forget();
    this.current = undefined;
  }

  /**
   * The run's prompt inputs as a hook left them. A changed tool selection changes the active
   * tools, as upstream (the same as `setActiveTools` in the handler); the run's prompt is made
   * from the rest.
   */
  private useOptions(options: SystemPromptOptions): void {
    const { tools } = this.parts;
    const before = tools.activeToolNames;
    const selected = options.selectedTools;
    if (selected.length !== before.length || selected.some((name, i) => name !== before[i])) tools.setActive(selected);
    this.edited = { ...options, selectedTools: [...tools.activeToolNames] };
  }
}

/** What the model is told of each tool. */
function toolDeclarations(tools: readonly AnyTool[]): ToolDeclaration[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.constrainedSampling ? { constrainedSampling: tool.constrainedSampling } : {}),
  }));
}
