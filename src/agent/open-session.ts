/**
 * The session file in use, the model's context built from it, and the model and thinking level
 * the session runs on. Every change of model or level is written to the file before it takes
 * effect (a change the file cannot take does not happen); replacing the file starts over with
 * the new file's own model and level.
 */
import type { ModelRegistry } from "../ai/registry.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import type { Model } from "../ai/types.ts";
import type { ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import { Conversation } from "./conversation.ts";
import { PromptError } from "./errors.ts";
import type { PigEvent, SessionChange } from "./events.ts";

export interface OpenSessionPorts {
  registry: ModelRegistry;
  emit(event: PigEvent): void;
  changed(reason: SessionChange["reason"]): void;
  /** `defaultThinkingLevel` as it is now: the level a reasoning model starts at after one that could not reason. */
  defaultThinkingLevel?: (() => ThinkingLevel | undefined) | undefined;
}

export class OpenSession {
  readonly conversation: Conversation;
  private storeValue: SessionStore;
  private modelValue: Model | undefined;
  private level: ThinkingLevel;

  constructor(
    store: SessionStore,
    model: Model | undefined,
    thinkingLevel: ThinkingLevel,
    private readonly ports: OpenSessionPorts,
  ) {
    this.storeValue = store;
    this.conversation = new Conversation(() => this.storeValue);
    this.modelValue = model;
    this.level = model ? clampThinkingLevel(model, thinkingLevel) : "off";
  }

  get store(): SessionStore {
    return this.storeValue;
  }

  get model(): Model | undefined {
    return this.modelValue;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.level;
  }

  /** Continues with another file (the old one is closed) on the model and level chosen for it. */
  replace(store: SessionStore, model: Model | undefined, thinkingLevel: ThinkingLevel): void {
    if (store !== this.storeValue) this.storeValue.close();
    this.storeValue = store;
    this.modelValue = model;
    this.level = model ? clampThinkingLevel(model, thinkingLevel) : "off";
    this.conversation.reset();
    this.recordStartingState();
  }

  /** A new session starts with its model and thinking level; an old one gains the level if it lacks one. */
  recordStartingState(): void {
    const store = this.storeValue;
    if (store.planContext().items.length === 0) {
      if (this.modelValue) store.appendModelChange(this.modelValue.provider, this.modelValue.id);
      store.appendThinkingLevelChange(this.level);
      return;
    }
    const hasLevel = store.branchRecords().some((r) => r.type === "thinking_level_change");
    if (!hasLevel) store.appendThinkingLevelChange(this.level);
  }

  /** Switches the model (recorded in the session) and re-clamps the thinking level. */
  switchModel(model: Model): void {
    // Recorded first: a change the file cannot take does not happen.
    this.storeValue.appendModelChange(model.provider, model.id);
    this.modelValue = model;
    // As Pi 0.87: the defaultThinkingLevel setting when there is one, else the level in force.
    const wanted = this.ports.defaultThinkingLevel?.() ?? this.level;
    this.applyThinkingLevel(clampThinkingLevel(model, wanted));
    this.ports.changed("model");
  }

  /** Sets the thinking level (clamped to the model); records it only when it changes. */
  switchThinkingLevel(level: ThinkingLevel): void {
    this.applyThinkingLevel(this.modelValue ? clampThinkingLevel(this.modelValue, level) : "off");
  }

  private applyThinkingLevel(level: ThinkingLevel): void {
    if (level === this.level) return;
    this.storeValue.appendThinkingLevelChange(level);
    this.level = level;
    this.ports.emit({ type: "thinking_level_changed", level });
    this.ports.changed("thinking_level");
  }

  /**
   * The registry's object for the current model again, after an extension changed its provider
   * (its base URL, its definition): the same provider and id, so nothing is recorded.
   */
  refreshModel(): void {
    const model = this.modelValue;
    const fresh = model && this.ports.registry.find(model.provider, model.id);
    if (fresh && fresh !== model) this.modelValue = fresh;
  }

  /** Names the session (trimmed; empty names are refused). */
  setName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new PromptError("Session name cannot be empty");
    this.storeValue.appendSessionInfo(trimmed);
    this.ports.emit({ type: "session_info_changed", name: trimmed });
    this.ports.changed("session_name");
  }
}
