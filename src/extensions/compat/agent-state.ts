/**
 * The state of a compat `Agent` (upstream's `AgentState`: the transcript, the model, the tools and
 * what the current run is doing) and its steering and follow-up queues.
 */
import type { Model, ThinkingLevel } from "../../ai/types.ts";
import type { AgentMessage } from "../../session/format.ts";
import { currentSystemMessage, systemPromptText } from "../../session/system-messages.ts";
import { toolDeclaration, type AgentTool } from "./agent-run.ts";

type Json = Record<string, unknown>;
export type QueueMode = "all" | "one-at-a-time";

export interface AgentInitialState {
  systemPrompt?: string;
  model?: Model;
  thinkingLevel?: ThinkingLevel;
  tools?: AgentTool[];
  messages?: AgentMessage[];
}

const UNKNOWN_MODEL: Model = {
  id: "unknown",
  name: "unknown",
  api: "unknown",
  provider: "unknown",
  baseUrl: "",
  reasoning: false,
  input: [],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 0,
  maxTokens: 0,
};

export class MessageQueue {
  private items: AgentMessage[] = [];
  constructor(public mode: QueueMode) {}
  add(message: AgentMessage): void {
    this.items.push(message);
  }
  get size(): number {
    return this.items.length;
  }
  peek(): AgentMessage[] {
    return this.mode === "all" ? [...this.items] : this.items.slice(0, 1);
  }
  take(): AgentMessage[] {
    const taken = this.peek();
    this.items = this.items.slice(taken.length);
    return taken;
  }
  clear(): void {
    this.items = [];
  }
}

/** The Agent's state; `tools` and `messages` copy the arrays assigned to them. */
export class AgentState {
  model: Model;
  thinkingLevel: ThinkingLevel;
  isStreaming = false;
  streamingMessage: AgentMessage | undefined = undefined;
  pendingToolCalls: ReadonlySet<string> = new Set();
  errorMessage: string | undefined = undefined;
  private toolList: AgentTool[];
  private transcript: AgentMessage[];

  constructor(initial: AgentInitialState = {}) {
    this.model = initial.model ?? UNKNOWN_MODEL;
    this.thinkingLevel = initial.thinkingLevel ?? "off";
    this.toolList = [...(initial.tools ?? [])];
    this.transcript = [...(initial.messages ?? [])];
    const prompt = initial.systemPrompt ?? "";
    if (this.transcript[0]?.role !== "system" && (prompt.length > 0 || this.toolList.length > 0)) {
      const declared = this.toolList.map(toolDeclaration);
      this.transcript.unshift({ role: "system", content: prompt, ...(declared.length > 0 ? { toolsAdded: declared } : {}), timestamp: 0 });
    }
  }

  /** The prompt the transcript's system messages declare. */
  get systemPrompt(): string {
    return systemPromptText(currentSystemMessage(this.transcript));
  }
  /** Before Pi 0.87 the prompt was a field of its own: setting it rewrites the leading system message. */
  set systemPrompt(text: string) {
    const first = this.transcript[0];
    if (first?.role === "system") {
      const { sections: _sections, ...rest } = first as Json;
      this.transcript[0] = { ...rest, role: "system", content: text } as AgentMessage;
    } else {
      this.transcript.unshift({ role: "system", content: text, timestamp: 0 });
    }
  }
  get tools(): AgentTool[] {
    return this.toolList;
  }
  set tools(tools: AgentTool[]) {
    this.toolList = [...tools];
  }
  get messages(): AgentMessage[] {
    return this.transcript;
  }
  set messages(messages: AgentMessage[]) {
    this.transcript = [...messages];
  }
}
