/**
 * Interactive mode: a prompt at the bottom of an ordinary scrolling terminal. Typing stays live
 * while pig works (Enter steers, Alt+Enter queues a follow-up), Escape stops the run and puts
 * every queued message back in the editor, `!cmd` runs a shell command, `/command` runs a
 * command. Everything the session does is shown through its event stream.
 */
import type { RuntimeConfig } from "../../runtime/config.ts";
import type { Runtime } from "../../runtime/runtime.ts";
import { replacesConversation } from "./session-changes.ts";
import type { PromptInput } from "../prompt-input.ts";
import { builtinCommands } from "./commands/index.ts";
import { commandCatalog } from "./commands/catalog.ts";
import { findCommand } from "./commands/dispatch.ts";
import { pickInTree } from "./tree/tree-picker.ts";
import { FILTER_OF_SETTING, type SessionTreeModel } from "./tree/tree-rows.ts";
import { askDialog, confirmDialog, pickDialog, pickManyDialog, type AskConfig } from "./dialogs.ts";
import { listSessions, sessionIndex } from "../../session/catalog.ts";
import { uniquePrefixes } from "../../session/id-prefix.ts";
import { argumentProvider, commandArgumentProvider } from "./argument-completion.ts";
import { EventView } from "./event-view.ts";
import { escapeTap, type EscapeState } from "./double-escape.ts";
import { PromptRouter } from "./prompt-router.ts";
import type { InteractiveHost, SlashCommand } from "./host.ts";
import type { TranscriptStyle } from "./render/transcript.ts";
import { combineProviders, fileMentionProvider, InputEditor, pathCompletionProvider, PromptHistory, slashCommandProvider } from "./input/index.ts";
import { settingsDefaults } from "../../resources/settings-effective.ts";
import type { KeyAction, KeyBindings } from "./input/keybindings.ts";
import { loadKeybindings } from "./keybindings-file.ts";
import { diagnosticLines, formatStartupReport } from "../../resources/startup-report.ts";
import { statusLine } from "./render/status.ts";
import { wrapOwnText } from "./render/wrap.ts";
import { detectThemeName, loadTheme, wantsColor, type Theme } from "./theme.ts";
import { followThemeFile } from "./theme-watch.ts";
import { sessionBanner } from "./session-banner.ts";
import { keyHintLines } from "./key-hint.ts";
import type { ModeExtensions } from "../../extensions/registries.ts";
import { ExtensionBridge } from "./extension-bridge.ts";
import { extensionRows } from "../../extensions/status.ts";
import { reportExtensionReload } from "./commands/extensions.ts";
import { runKeyAction } from "./key-actions.ts";
import { onStopSignal, STOP_EXIT_CODES } from "../stop-signals.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";
import { hideUrlCredentials } from "../../util/redact.ts";
import { accountLogins } from "./login/account-logins.ts";

/**
 * At most ~30 writes a second to the terminal while output streams in: a fast answer arrives in
 * pieces of a few characters, and drawing the prompt area under each one cost most of the CPU
 * time of the view (interactive-stream.ts).
 */
const FRAME_MS = 33;

export class InteractiveApp implements InteractiveHost {
  theme: Theme;
  readonly keybindings: KeyBindings;
  private readonly editor: InputEditor;
  private readonly view: EventView;
  private readonly router: PromptRouter;
  private readonly commands: SlashCommand[] = builtinCommands();
  private readonly bridge: ExtensionBridge;
  readonly subscriptions = accountLogins;
  /** What Escape and Ctrl+C cancel while no dialog is open, when a command asked for it (`cancellable`). */
  private cancelling: AbortController | undefined;
  private exitResolve: ((code: number) => void) | undefined;
  /** The theme file in use, watched while pig runs (theme-watch.ts). */
  private themeFile: { name: string; path: string } | undefined;
  private stopThemeWatch: () => void = () => {};

  constructor(
    private readonly runtime: Runtime,
    _config: RuntimeConfig,
    extensions?: ModeExtensions,
  ) {
    const settings = runtime.settings.settings;
    // Theme files come from the resource resolution (a project's only when it is trusted).
    const themeName = settings.theme ?? detectThemeName();
    const { theme, warnings: themeWarnings, path: themePath } = loadTheme(themeName, runtime.resources.themes, wantsColor(process.stdout));
    this.theme = theme;
    this.themeFile = themePath ? { name: themeName, path: themePath } : undefined;
    const keys = loadKeybindings(runtime.agentDir);
    this.keybindings = keys.bindings;
    // One listing of the project's files, cached, for Tab and for the list `@` opens as it is typed.
    const mentions = fileMentionProvider({ cwd: runtime.session.cwd });
    this.editor = new InputEditor({
      keybindings: keys.bindings,
      frameMs: FRAME_MS,
      history: PromptHistory.forAgentDir(runtime.agentDir),
      completion: combineProviders(
        argumentProvider({
          models: () => runtime.registry.available(),
          sessions: () => (runtime.sessionDir ? listSessions(runtime.sessionDir) : []),
          providers: () => [...runtime.registry.providers],
          storedProviders: () => runtime.registry.storedAuthProviders(),
          subscriptions: () => this.subscriptions.list(),
        }),
        commandArgumentProvider(() => this.bridge.completing()),
        slashCommandProvider(() => this.completions()),
        mentions,
        pathCompletionProvider({ cwd: runtime.session.cwd }),
      ),
      completionAsTyped: slashCommandProvider(() => this.completions()),
      listsAsTyped: mentions,
      menuRows: runtime.settings.effective().autocompleteMaxVisible,
      onSubmit: (text, kind) => void this.router.submit(text, kind),
      onEscape: () => void this.escape(),
      onInterrupt: () => this.interrupt(),
      interceptKey: (key) => this.bridge.shortcut(key.id),
      onKey: (_key, action) => void (action && this.runAction(action)),
      onExit: () => this.exit(),
      // Every write to a terminal that went away fails: only the first one counts.
      onHangup: () => this.exitCode === undefined && this.exit(STOP_EXIT_CODES.SIGHUP),
    });
    const builtinNames = this.commands.map((c) => c.name);
    this.bridge = new ExtensionBridge({ extensions, host: this, editor: this.editor, keybindings: keys.bindings, builtinNames, tty: !this.editor.plain });
    this.view = new EventView(
      // The view's rows fit already; its notices (a retry, the session's name) wrap as pig's own lines do.
      { print: (text) => this.editor.print(wrapOwnText(text, this.columns(), { table: false })), setStatus: (lines) => this.bridge.setViewStatus(lines), columns: () => process.stdout.columns ?? 80 },
      theme,
      {
        showThinking: !settings.hideThinkingBlock,
        codeBlockIndent: settings.markdown?.codeBlockIndent ?? settingsDefaults.markdown.codeBlockIndent,
        models: (provider, id) => runtime.registry.find(provider, id),
        cwd: () => runtime.session.cwd,
      },
    );
    this.router = new PromptRouter({
      host: this,
      editor: this.editor,
      view: this.view,
      commands: this.commands,
      session: () => this.session,
      theme: () => this.theme,
      extensionCommand: (text) => this.bridge.command(text),
      extensionNames: () => this.extensionCommands(),
    });
    for (const problem of [...themeWarnings, ...keys.warnings]) this.warn(problem);
    runtime.extensions.onReload(() => this.bridge.refreshShortcuts());
  }

  get session() {
    return this.runtime.session;
  }
  get registry() {
    return this.runtime.registry;
  }
  get settings() {
    return this.runtime.settings;
  }
  get resources() {
    return this.runtime.resources;
  }
  get agentDir() {
    return this.runtime.agentDir;
  }
  get cwd() {
    return this.runtime.session.cwd;
  }
  get sessionDir() {
    return this.runtime.sessionDir;
  }
  get piglets() {
    return this.runtime.piglets;
  }
  get piglet() {
    return this.runtime.piglet;
  }

  private completions() {
    // `enableSkillCommands: false` leaves /skill: out of completion (typing one still works, as upstream).
    return commandCatalog(this.commands, this.resources, { skills: this.settings.settings.enableSkillCommands !== false, extensions: this.extensionCommands() });
  }

  readonly extensionCommands = () => this.bridge.names();
  readonly extensionShortcuts = () => this.bridge.shortcutRows();
  readonly extensionStatus = () => extensionRows(this.runtime.extensions.status());

  async run(initial: PromptInput[]): Promise<number> {
    const color = wantsColor(process.stdout);
    // Before the prompt is drawn, through the same pass the prompt's printing makes (names, paths and descriptions come from files).
    const write = (text: string) => void process.stdout.write(terminalSafe(wrapOwnText(text, this.columns()), { styled: true }));
    if (!this.settings.settings.quietStartup) {
      write(`${formatStartupReport(this.runtime.startup, { color })}\n`);
      write(`${keyHintLines(this.keybindings, this.columns(), this.theme).join("\n")}\n`);
    } else for (const line of diagnosticLines(this.runtime.startup.diagnostics, color)) write(`${line}\n`);
    for (const warning of [...this.runtime.warnings, ...this.bridge.startupWarnings()]) write(`${this.theme.fg("warning", terminalSafe(warning))}\n`);
    // A continued or chosen session shows its conversation before the prompt.
    if (this.session.store.branchRecords().some((r) => r.type === "message")) this.showConversation(write);
    const unsubscribe = this.session.subscribe((event) => {
      this.view.handle(event);
      if (event.type === "agent_start") this.editor.setBusy(true);
      if (event.type === "agent_end") this.afterRun();
    });
    for (const report of this.runtime.extensions.drainStartupErrors()) this.session.reportExtensionError(report);
    this.runtime.extensions.bindNotices((text) => this.warn(text));
    // Every replacement and move in the tree passes through the session, whoever asked for it.
    const unwatch = this.session.onSessionChange((change) => {
      if (replacesConversation(change)) this.sessionChanged();
    });
    const unwarn = this.session.onWarning((text) => this.warn(text));
    this.editor.start();
    this.watchTheme();
    // A long session's context is read once the prompt is up, not before, and a slice at a time,
    // so keys typed meanwhile are answered (a 50 MB session's takes a few hundred ms); not past
    // the moment pig starts leaving, which closes the file.
    let running = true;
    setTimeout(() => {
      this.session.readContextInSlices(() => new Promise<boolean>((resolve) => setImmediate(() => resolve(running)))).catch((error: Error) => {
        // A line that cannot be read back: said now; the next prompt reports it again.
        this.error(error.message);
      });
    }, 0);
    void (async () => {
      for (const prompt of initial) {
        // `pig "/name"` is what typing it would be: a command runs, an unknown one is refused.
        if (prompt.images.length === 0 && prompt.typed === undefined && prompt.text.startsWith("/")) await this.router.submit(prompt.text, "enter");
        else await this.session.submit(prompt.text, { source: "interactive", images: prompt.images, ...(prompt.typed !== undefined ? { typedText: prompt.typed } : {}) }).catch((e: Error) => this.error(e.message));
      }
    })();
    // A signal stops the run as Escape does, so the session keeps the answer so far, then pig
    // leaves as /quit does, with the signal's exit code (stop-signals.ts).
    const removeSignals = onStopSignal((code) => this.exit(code));
    const code = await new Promise<number>((resolve) => {
      this.exitResolve = resolve;
    });
    running = false;
    removeSignals();
    unsubscribe();
    unwatch();
    unwarn();
    this.stopThemeWatch();
    this.view.dispose();
    this.editor.stop();
    // The session is disposed by the caller, after the extensions' session_shutdown handlers
    // (what they save must reach the session file before it closes).
    return code;
  }

  private afterRun(): void {
    // A retry or compaction may continue the run: report once the session is idle.
    setTimeout(() => {
      if (this.session.isStreaming) return;
      this.editor.setBusy(false);
      const stats = this.session.stats();
      // Its parts are separated by two spaces too, but it is no table: its rows start at the margin.
      const line = statusLine(stats, this.session.model, this.session.thinkingLevel, this.theme, this.session.routedTo());
      this.editor.print(`${wrapOwnText(line, this.columns(), { table: false })}\n`);
    }, 0);
  }

  /**
   * Escape: stop whatever runs; queued messages go back into the editor, before the draft.
   * When nothing runs, two quick Escapes on an empty prompt run `doubleEscapeAction` (/tree or /fork).
   */
  private async escape(): Promise<void> {
    // A sign-in waiting for the browser is what the user looks at: Escape leaves it.
    if (this.cancelling) {
      this.cancelling.abort();
      return;
    }
    if (this.router.shellRunning) {
      // What was typed to run after it is not run. One text comes back to the editor as it was;
      // several are listed instead (joined, two `!` commands would run as one script) and stay in
      // the history, a key press away.
      const held = this.router.takeHeld();
      if (held.length === 1) this.editor.prependText(held[0]!);
      else for (const text of held) this.info(`not run: ${text.split("\n")[0]}`);
      this.session.abortBash();
      return;
    }
    if (!this.session.isStreaming && !this.session.isCompacting) {
      // A branch summary (/tree) is stopped, and what was typed meanwhile goes back to the editor;
      // while another command works, Escape does nothing.
      if (this.session.abortBranchSummary()) {
        this.restoreQueued();
        return;
      }
      if (this.router.commandRunning) return;
      try {
        await this.idleEscape();
      } catch (error) {
        this.error((error as Error).message);
      }
      return;
    }
    // The queued text is back in the editor before the run has wound down.
    this.restoreQueued();
    await this.session.abort();
  }

  /** Ctrl+C: while something works it is stopped as by Escape (true); otherwise false. */
  private interrupt(): boolean {
    if (this.cancelling) {
      this.cancelling.abort();
      return true;
    }
    const working = this.router.shellRunning || this.session.isStreaming || this.session.isCompacting;
    if (!working) return false;
    void this.escape().then(() => this.info("Stopped. Press Ctrl+C again to quit."));
    return true;
  }

  /** Puts every queued or held message back into the editor, in order, before what is being typed. */
  private restoreQueued(): void {
    const queued = [...this.session.clearQueues(), ...this.router.takeHeld()];
    // The editor puts its own line break between the restored text and the draft.
    if (queued.length > 0) this.editor.prependText(queued.join("\n"));
  }

  private escapes: EscapeState = {};

  private async idleEscape(): Promise<void> {
    const tap = escapeTap(this.escapes, Date.now(), this.editor.getText() === "");
    this.escapes = tap.state;
    if (!tap.fire) return;
    const action = this.settings.settings.doubleEscapeAction ?? settingsDefaults.doubleEscapeAction;
    const command = action !== "none" ? findCommand(this.commands, action) : undefined;
    if (command) await this.router.runCommand(command, "");
  }

  /** The app's own key actions (the editor runs the editing ones): key-actions.ts. */
  private runAction(action: KeyAction): Promise<void> {
    return runKeyAction(action, {
      editor: this.editor,
      view: this.view,
      session: this.session,
      settings: this.settings,
      thinkingLevel: () => this.session.thinkingLevel,
      runCommand: async (name) => {
        const command = findCommand(this.commands, name);
        if (command) await this.router.runCommand(command, "");
      },
      toggleResults: () => this.toggleResults(),
      restoreQueued: () => this.restoreQueued(),
      info: (message) => this.info(message),
      warn: (message) => this.warn(message),
      error: (message) => this.error(message),
    });
  }

  // ── InteractiveHost ──────────────────────────────────────────────────────

  applyTheme(name: string): void {
    const { theme, warnings, path } = loadTheme(name, this.resources.themes, wantsColor(process.stdout));
    this.theme = theme;
    this.view.theme = theme;
    for (const warning of warnings) this.warn(warning);
    this.themeFile = path ? { name, path } : undefined;
    this.watchTheme();
  }

  /** An edit of the theme file in use shows at once (theme-watch.ts). */
  private watchTheme(): void {
    this.stopThemeWatch();
    this.stopThemeWatch = followThemeFile(this.themeFile, {
      load: (name) => loadTheme(name, this.resources.themes, wantsColor(process.stdout)),
      apply: (theme) => {
        this.theme = theme;
        this.view.theme = theme;
      },
      info: (message) => this.info(message),
      warn: (message) => this.warn(message),
    });
  }

  /** pig's own lines break at words (and a path at its `/`s), not wherever the terminal's edge falls. */
  print(text: string, options: { table?: boolean } = {}): void {
    const fitted = wrapOwnText(text, this.columns(), options);
    this.editor.print(fitted.endsWith("\n") ? fitted : `${fitted}\n`);
  }

  private columns(): number {
    return process.stdout.columns ?? 80;
  }
  // Notices carry names, paths and errors from outside pig: shown safe, URLs without their credentials.
  info(message: string): void {
    this.print(this.theme.fg("muted", terminalSafe(message)));
  }
  warn(message: string): void {
    this.print(this.theme.fg("warning", terminalSafe(hideUrlCredentials(message))));
  }
  error(message: string): void {
    this.print(this.theme.fg("error", terminalSafe(hideUrlCredentials(message))));
  }
  getEditorText(): string {
    return this.editor.getText();
  }
  setEditorText(text: string): void {
    this.editor.setText(text);
  }

  private async dialog<T>(run: () => Promise<T>): Promise<T> {
    this.editor.suspend();
    // An answer streaming meanwhile is printed once the dialog has closed (and erased itself).
    this.editor.holdOutput();
    try {
      return await run();
    } finally {
      this.editor.resume();
      this.editor.releaseOutput();
    }
  }

  pick<T>(message: string, options: { value: T; label: string; hint?: string }[], config?: { search?: boolean; initial?: T; signal?: AbortSignal }) {
    return this.dialog(() => pickDialog(message, options, config));
  }
  pickInTree(tree: SessionTreeModel, setLabel: (entryId: string, label: string | undefined) => void) {
    const filter = FILTER_OF_SETTING[this.settings.effective().treeFilterMode];
    return this.dialog(() => pickInTree(tree, this.theme, setLabel, {}, filter));
  }
  pickMany<T>(message: string, options: { value: T; label: string; hint?: string }[], initial: readonly T[]) {
    return this.dialog(() => pickManyDialog(message, options, initial));
  }
  confirm(message: string, initial?: boolean, signal?: AbortSignal) {
    return this.dialog(() => confirmDialog(message, initial, signal));
  }
  ask(message: string, config?: AskConfig) {
    return this.dialog(() => askDialog(message, config));
  }

  async cancellable<T>(run: (cancel: AbortController) => Promise<T>): Promise<T> {
    const cancel = new AbortController();
    const outer = this.cancelling;
    this.cancelling = cancel;
    try {
      return await run(cancel);
    } finally {
      this.cancelling = outer;
    }
  }

  /** Every session id pig knows of, read once: the ids sessions of this run add are put in as they come. */
  private knownIds: Set<string> | undefined;

  sessionChanged(): void {
    this.showConversation((text) => this.editor.print(text));
  }

  /** The session line, then the end of the active branch as it looked live, then a separator. */
  private showConversation(write: (text: string) => void): void {
    const store = this.session.store;
    const dir = this.runtime.sessionDir;
    // The shortest form `pig --session` takes for this session without mistaking it for another.
    this.knownIds ??= new Set(dir ? sessionIndex(dir, this.runtime.agentDir).map((s) => s.id) : []);
    this.knownIds.add(store.sessionId);
    const banner = sessionBanner({
      store,
      shortId: uniquePrefixes(this.knownIds).get(store.sessionId) ?? store.sessionId,
      style: this.view.style(),
      blocks: this.view.blocks,
      screens: this.settings.effective().replayScreens,
      terminal: { columns: process.stdout.columns ?? 80, rows: process.stdout.rows ?? 24 },
    });
    write(`${banner.join("\n")}\n`);
  }

  applyDisplaySettings(): void {
    const settings = this.settings.effective();
    this.view.showThinking = !settings.hideThinkingBlock;
    this.editor.setMenuRows(settings.autocompleteMaxVisible);
  }

  transcriptStyle(): TranscriptStyle {
    return this.view.style();
  }

  expandResult(number: number): boolean {
    return this.view.expand(number);
  }

  /** Every result block collapsed or whole from now on, and the conversation printed again that way. */
  toggleResults(): void {
    if (this.session.isStreaming || this.session.isCompacting) {
      // The conversation printed again would leave out what is being written now.
      this.info("Results can be collapsed or expanded all together once pig is idle; Ctrl+O and /expand N work now.");
      return;
    }
    this.view.blocks.expandedAll = !this.view.blocks.expandedAll;
    this.info(this.view.blocks.expandedAll ? "Tool results are shown whole; the conversation again:" : "Tool results are collapsed; the conversation again:");
    this.showConversation((text) => this.editor.print(text));
  }

  async reload(): Promise<void> {
    const extensions = this.runtime.extensions.host ? await this.runtime.extensions.reload() : undefined;
    const fresh = this.runtime.reload();
    // As upstream: the settings decide again (over a Ctrl+T toggle, the completion rows too), and
    // the theme they name is loaded again, from the theme files as they are now.
    this.applyDisplaySettings();
    this.applyTheme(this.settings.settings.theme ?? detectThemeName());
    const keys = loadKeybindings(this.runtime.agentDir);
    this.keybindings.adopt(keys.bindings);
    for (const warning of keys.warnings) this.warn(warning);
    this.bridge.refreshShortcuts();
    this.info(`Reloaded: settings, ${fresh.contextFiles.length} context files, ${fresh.skills.length} skills, ${fresh.templates.length} templates.`);
    if (extensions) reportExtensionReload(this, extensions);
  }

  /**
   * Leaves pig (/quit, Ctrl+D, a signal, a terminal that went away) once what runs has stopped,
   * as Escape stops it: the session keeps the answer so far. The first reason gives the exit
   * code; asked again while the stop is under way, pig leaves without waiting for it.
   */
  exit(code = 0): void {
    if (this.exitCode !== undefined) {
      this.exitResolve?.(this.exitCode);
      return;
    }
    this.exitCode = code;
    void this.session.abort().finally(() => this.exitResolve?.(code));
  }

  private exitCode: number | undefined;
}

