/**
 * Replacing the session: a new one, another file resumed, a fork or a clone. The extensions'
 * before-hooks may cancel; listeners are told before (the old file is still current) and after
 * (the new one is in place). The new file brings its own model and thinking level.
 */
import { existsSync } from "node:fs";
import type { ModelRegistry } from "../ai/registry.ts";
import type { Model } from "../ai/types.ts";
import type { Settings } from "../resources/settings.ts";
import { createBranchedSession, forkSession } from "../session/branching.ts";
import type { ThinkingLevel } from "../session/format.ts";
import { SessionStore } from "../session/store.ts";
import type { SpillFiles } from "../tools/spill-files.ts";
import type { Activity } from "./activity.ts";
import { PromptError } from "./errors.ts";
import type { SessionChange } from "./events.ts";
import type { AgentHooks } from "./hooks.ts";
import { restoreModelAndThinking } from "./model-restore.ts";
import type { ExtensionFailure } from "./session-events.ts";

export type Cancellable = { cancelled: boolean };

/** A replacement of the session (new, resume, fork, clone) that its before-hooks let through. */
export interface ReplaceEvent {
  reason: "new" | "switch" | "fork" | "clone";
  /** The session file being left (absent in memory). */
  previousSessionFile?: string;
  /** The session file taking its place (absent in memory). */
  targetSessionFile?: string;
}

/**
 * Told around a replacement, both awaited: `before` while the old session is still current (what
 * it appends lands in the old file), `after` once the new one is in place.
 */
export interface ReplaceListener {
  before?(event: ReplaceEvent): Promise<void> | void;
  after?(event: ReplaceEvent): Promise<void> | void;
}

export interface LifecyclePorts {
  activity: Activity;
  registry: ModelRegistry;
  spillFiles: SpillFiles;
  cwd: string;
  /** Where new sessions are written; undefined for `--no-session` (sessions stay in memory). */
  sessionDir: string | undefined;
  store(): SessionStore;
  model(): Model | undefined;
  hooks(): AgentHooks;
  settings(): Settings;
  /** The model the user chose last, when it still has a key: a new session starts on it. */
  chosenModel(): Model | undefined;
  /** Puts `store` in place of the current file, on this model and level. */
  replaceStore(store: SessionStore, model: Model | undefined, thinkingLevel: ThinkingLevel): void;
  changed(reason: SessionChange["reason"]): void;
  report(failure: ExtensionFailure): void;
  /** Tells the user something that stops nothing (the session's model could not be restored). */
  warn(text: string): void;
}

export class SessionLifecycle {
  private readonly listeners = new Set<ReplaceListener>();

  constructor(private readonly ports: LifecyclePorts) {}

  /** Told before and after each replacement of the session (the extensions' session_shutdown / session_start). */
  onReplace(listener: ReplaceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts a fresh session (optionally recording where it came from), on the model the user
   * chose last, else the saved default (read now: `/model` may have changed it since start).
   */
  async newSession(options: { parentSession?: string } = {}): Promise<Cancellable> {
    const ports = this.ports;
    if ((await ports.hooks().sessionBeforeSwitch({ reason: "new" }))?.cancel) return { cancelled: true };
    const chosen = ports.chosenModel();
    const dir = ports.sessionDir;
    const store = SessionStore.create({ cwd: ports.cwd, ...(dir ? { dir } : {}), ...(options.parentSession ? { parentSession: options.parentSession } : {}) });
    await this.adopt(store, "new", chosen);
    return { cancelled: false };
  }

  /**
   * Continues the session in `path` (a path with no file starts a new session there, as
   * upstream). Its recorded working directory must still exist.
   */
  async switchSession(path: string): Promise<Cancellable> {
    const ports = this.ports;
    if (path === "") throw new PromptError("Cannot switch sessions: the session file path is empty");
    if ((await ports.hooks().sessionBeforeSwitch({ reason: "resume", targetSessionFile: path }))?.cancel) return { cancelled: true };
    if (!existsSync(path)) {
      await this.adopt(SessionStore.create({ cwd: ports.cwd, path }), "switch");
      return { cancelled: false };
    }
    const store = SessionStore.open(path, { write: true });
    if (store.cwd && !existsSync(store.cwd)) {
      store.close();
      throw new PromptError(
        `Stored session working directory does not exist: ${store.cwd}\nSession file: ${path}\nCurrent working directory: ${ports.cwd}`,
      );
    }
    await this.adopt(store, "switch");
    return { cancelled: false };
  }

  /** A new session holding the path up to (not including) the user message `entryId`; returns its text. */
  async fork(entryId: string): Promise<Cancellable & { text: string }> {
    this.refuseWhileRunning("fork");
    if ((await this.ports.hooks().sessionBeforeFork({ entryId, position: "before" }))?.cancel) return { text: "", cancelled: true };
    const { store, selectedText } = forkSession(this.ports.store(), entryId, "before");
    await this.adopt(store, "fork");
    return { text: selectedText ?? "", cancelled: false };
  }

  /** A new session holding the whole current branch. */
  async clone(): Promise<Cancellable> {
    const leaf = this.ports.store().leafId;
    this.refuseWhileRunning("clone");
    if (leaf === null) throw new PromptError("Cannot clone session: no current entry selected");
    if ((await this.ports.hooks().sessionBeforeFork({ entryId: leaf, position: "at" }))?.cancel) return { cancelled: true };
    await this.adopt(createBranchedSession(this.ports.store(), leaf, "clone"), "clone");
    return { cancelled: false };
  }

  /**
   * A copy is written as soon as it is made, so a fork or clone that `adopt` would refuse later
   * is refused before its hooks run and its file appears.
   */
  private refuseWhileRunning(what: "fork" | "clone"): void {
    if (this.ports.activity.isRunning) throw new PromptError(`Cannot ${what} the session while the agent is running; wait for agent_end or abort first.`);
  }

  private async adopt(store: SessionStore, reason: ReplaceEvent["reason"], model?: Model): Promise<void> {
    const ports = this.ports;
    const current = ports.store();
    if (ports.activity.isRunning) {
      if (store !== current) store.close();
      throw new PromptError("Cannot switch sessions while the agent is running.");
    }
    const event: ReplaceEvent = {
      reason,
      ...(current.path ? { previousSessionFile: current.path } : {}),
      ...(store.path ? { targetSessionFile: store.path } : {}),
    };
    for (const listener of [...this.listeners]) await this.tell(() => listener.before?.(event));
    const restored = restoreModelAndThinking({ store, registry: ports.registry, settings: ports.settings(), ...(model ? { model } : {}) });
    ports.replaceStore(store, restored.model ?? ports.model(), restored.thinkingLevel);
    // Said after a switch or fork as at startup (upstream 1.x), not only when the run began.
    if (restored.warning) ports.warn(restored.warning);
    // A fork or clone carries the messages that name the spill files along; a new or other session does not.
    const sameConversation = reason === "fork" || reason === "clone" || (event.previousSessionFile !== undefined && event.previousSessionFile === event.targetSessionFile);
    if (!sameConversation) ports.spillFiles.removeAll();
    ports.changed(reason);
    for (const listener of [...this.listeners]) await this.tell(() => listener.after?.(event));
  }

  /** A listener that fails does not stop the replacement. */
  private async tell(run: () => Promise<void> | void): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.ports.report({ extensionPath: "", event: "session_replace", error: error instanceof Error ? error.message : String(error) });
    }
  }
}
