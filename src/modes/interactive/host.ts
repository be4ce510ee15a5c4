/**
 * What slash commands, pickers and the first-run wizard can use of the interactive mode: the
 * session, the editor, printing above the prompt, and dialogs (which take the
 * terminal while they are open). One interface, so commands do not reach into the app.
 */
import type { AgentSession } from "../../agent/session.ts";
import type { Piglet } from "../../resources/piglet.ts";
import type { Runtime } from "../../runtime/runtime.ts";
import type { ModelRegistry } from "../../ai/registry.ts";
import type { LoadedResources } from "../../resources/load-resources.ts";
import type { SettingsStore } from "../../resources/settings-store.ts";
import type { ExtensionRow } from "../../extensions/status.ts";
import type { KeyBindings } from "./input/keybindings.ts";
import type { TranscriptStyle } from "./render/transcript.ts";
import type { Theme } from "./theme.ts";
import type { SubscriptionLogins } from "./login/subscriptions.ts";
import type { SessionTreeModel } from "./tree/tree-rows.ts";

/** How a question is asked: its placeholder or initial text, masking, and what its closed line says when aborted or answered. */
export interface AskConfig {
  placeholder?: string;
  initial?: string;
  mask?: boolean;
  signal?: AbortSignal;
  abortedAs?: string;
  answeredAs?: string;
}

export interface PickOption<T> {
  value: T;
  label: string;
  hint?: string;
}

export interface InteractiveHost {
  readonly session: AgentSession;
  readonly registry: ModelRegistry;
  readonly settings: SettingsStore;
  readonly resources: LoadedResources;
  readonly agentDir: string;
  readonly cwd: string;
  /** The session directory of this project (undefined with --no-session). */
  readonly sessionDir: string | undefined;
  readonly theme: Theme;
  /** The keys in force (defaults with the user's keybindings.json over them). */
  readonly keybindings: KeyBindings;

  /** The run's Piglets (list, switch) and the current one; absent in a host without a runtime. */
  readonly piglets?: Runtime["piglets"];
  readonly piglet?: Piglet | undefined;

  /** Switches the colours at once (a missing or broken theme file is warned about; dark is used). */
  applyTheme(name: string): void;

  /** Reads again the settings the screen follows (thinking shown or hidden, completion rows), after `/settings` changed one. */
  applyDisplaySettings(): void;

  /** How conversation rows are drawn now (colours, width, code blocks, links), for a command that prints some. */
  transcriptStyle(): TranscriptStyle;

  /**
   * Prints text above the prompt (a trailing newline is added when missing), wrapped at the
   * terminal's width. `table: false` for a line that holds text as typed: two spaces in it are
   * not a gap before a value column to hang the rest under.
   */
  print(text: string, options?: { table?: boolean }): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;

  /** The editor's text, and replacing / prefixing it (e.g. a forked message back in the editor). */
  getEditorText(): string;
  setEditorText(text: string): void;

  /** A list to choose from (type to filter when `search`); undefined when cancelled (or `signal` aborts). */
  pick<T>(message: string, options: PickOption<T>[], config?: { search?: boolean; initial?: T; signal?: AbortSignal }): Promise<T | undefined>;
  /**
   * An entry of the session tree (`/tree`), with its filters and branch jumps; undefined when
   * cancelled. Labels written in it are kept by `setLabel` as they are written.
   */
  pickInTree(tree: SessionTreeModel, setLabel: (entryId: string, label: string | undefined) => void): Promise<string | undefined>;
  /** Several of a list (`initial` selected at first); undefined when cancelled. */
  pickMany<T>(message: string, options: PickOption<T>[], initial: readonly T[]): Promise<T[] | undefined>;
  confirm(message: string, initial?: boolean, signal?: AbortSignal): Promise<boolean>;
  /**
   * A line of text (`mask` hides it, for keys); undefined when cancelled, or when `signal` closed
   * it (`abortedAs` is then what its closed line says instead of "cancelled"; `answeredAs` is
   * what it says instead of the answer).
   */
  ask(message: string, config?: AskConfig): Promise<string | undefined>;

  /** The subscription (OAuth) logins `/login` offers. */
  readonly subscriptions: SubscriptionLogins;
  /**
   * Runs `run` with a controller that Escape or Ctrl+C aborts while no dialog is open (in a
   * dialog they close the dialog): a long wait the user can leave, such as a sign-in.
   */
  cancellable<T>(run: (cancel: AbortController) => Promise<T>): Promise<T>;

  /** Prints tool result `number` (as its hint names it) in full; false when there is none. */
  expandResult(number: number): boolean;
  /** Switches every tool result between collapsed and whole, printing the conversation again. */
  toggleResults(): void;
  /** Re-reads resources (skills, templates, context files) and rebuilds the system prompt. */
  reload(): Promise<void>;
  /** Leaves pig. */
  exit(): void;
  /** The commands extensions registered, by the name that runs them (for /help). */
  extensionCommands?(): readonly { name: string; description?: string }[];
  /** Each loaded extension's process and state (for /extensions). */
  extensionStatus?(): readonly ExtensionRow[];
  /** The keys extension shortcuts took, with what each does (for /hotkeys). */
  extensionShortcuts?(): readonly (readonly [key: string, what: string])[];
}

export interface SlashCommand {
  name: string;
  description: string;
  argumentHint?: string;
  run(host: InteractiveHost, args: string): Promise<void>;
}
