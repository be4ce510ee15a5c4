/**
 * The interactive mode's side of the extension platform: the UI handlers get, extension
 * commands (run from the prompt, listed and completed), shortcuts (checked against the keys in
 * force, run from the prompt's keys), and the lines extensions keep with the prompt.
 */
import { editExternally } from "./input/external-editor.ts";
import type { CommandContext, CommandFailure, RegisteredCommand } from "../../extensions/commands.ts";
import { commandContextFor, type ModeExtensions } from "../../extensions/registries.ts";
import type { ResolvedShortcuts } from "../../extensions/shortcuts.ts";
import type { NoticeType } from "../../extensions/ui.ts";
import { extensionErrorText } from "../extension-error.ts";
import { InteractiveExtensionUI, titleSequence, type ExtensionLines } from "./extension-ui.ts";
import type { CompletingCommand } from "./argument-completion.ts";
import type { InteractiveHost, SlashCommand } from "./host.ts";
import type { KeyBindings } from "./input/keybindings.ts";
import { builtinKeys, extensionKey } from "./shortcut-keys.ts";

/** The parts of the prompt editor the bridge uses. */
export interface BridgeEditor {
  setStatus(lines: readonly string[]): void;
  setFooter(lines: readonly string[]): void;
  suspend(): void;
  resume(): void;
  holdOutput(): void;
  releaseOutput(): void;
}

export interface BridgeOptions {
  extensions: ModeExtensions | undefined;
  host: InteractiveHost;
  editor: BridgeEditor;
  keybindings: KeyBindings;
  /** pig's own command names: they run first, and an extension command of the same name is not listed. */
  builtinNames: readonly string[];
  tty: boolean;
  /** Where the title sequence goes (stdout). */
  writeTerminal?: (text: string) => void;
}

export class ExtensionBridge {
  readonly ui: InteractiveExtensionUI;
  private shortcuts: ResolvedShortcuts<CommandContext> | undefined;
  private viewStatus: readonly string[] = [];
  private extra: ExtensionLines = { above: [], below: [], status: undefined };

  constructor(private readonly options: BridgeOptions) {
    const { host } = options;
    this.ui = new InteractiveExtensionUI({
      tty: options.tty,
      pick: (title, choices, signal) => host.pick(title, choices, signal ? { signal } : {}),
      confirm: (message, signal) => host.confirm(message, undefined, signal),
      ask: (message, config) => host.ask(message, config),
      edit: (title, text) => this.edit(title, text),
      notice: (message, type) => this.notice(message, type),
      linesChanged: (lines) => {
        this.extra = lines;
        this.draw();
      },
      writeTitle: (title) => {
        if (options.tty) (options.writeTerminal ?? ((text) => process.stdout.write(text)))(titleSequence(title));
      },
      getEditorText: () => host.getEditorText(),
      setEditorText: (text) => host.setEditorText(text),
    });
    options.extensions?.bindUi?.(this.ui);
    this.refreshShortcuts();
  }

  /** The extensions' shortcuts checked against the keys in force again (after a reload replaced them). */
  refreshShortcuts(): void {
    this.shortcuts = this.options.extensions?.registries.shortcuts.resolve(builtinKeys(this.options.keybindings), extensionKey);
  }

  /** What to say at startup: extension commands hidden behind pig's own, refused or overriding shortcuts. */
  startupWarnings(): string[] {
    const builtin = new Set(this.options.builtinNames);
    const commands = (this.options.extensions?.registries.commands.commands() ?? [])
      .filter((c) => builtin.has(c.name))
      .map((c) =>
        c.invocationName === c.name
          ? `Extension command '/${c.name}' (${c.sourceInfo.path}) has the name of one of pig's commands, which runs instead; it is left out of completion.`
          : `Extension command '/${c.name}' (${c.sourceInfo.path}) has the name of one of pig's commands; it runs as '/${c.invocationName}'.`,
      );
    return [...commands, ...(this.shortcuts?.diagnostics.map((d) => d.message) ?? [])];
  }

  /** Extension commands for completion and /help: by invocation name, pig's own names left out. */
  listed(): readonly RegisteredCommand[] {
    const builtin = new Set(this.options.builtinNames);
    return (this.options.extensions?.registries.commands.commands() ?? []).filter((c) => !builtin.has(c.invocationName));
  }

  /** The listed commands by the name that runs them (for /help and completion). */
  names(): { name: string; description?: string }[] {
    return this.listed().map((c) => ({ name: c.invocationName, ...(c.description !== undefined ? { description: c.description } : {}) }));
  }

  /** The listed commands that complete their own arguments, by the name that runs them. */
  completing(): CompletingCommand[] {
    return this.listed().flatMap((c) => (c.getArgumentCompletions ? [{ name: c.invocationName, getArgumentCompletions: c.getArgumentCompletions.bind(c) }] : []));
  }

  /** The keys extension shortcuts took, with their descriptions (else the extension's path). */
  shortcutRows(): [string, string][] {
    return (this.shortcuts?.list() ?? []).map((s) => [s.key, s.description ?? s.extensionPath]);
  }

  /** The extension command `text` invokes, as a command the prompt router runs like pig's own. */
  command(text: string): SlashCommand | undefined {
    const matched = this.options.extensions?.registries.commands.match(text);
    if (!matched) return undefined;
    return {
      name: matched.command.invocationName,
      description: matched.command.description ?? "",
      run: async () => {
        try {
          await matched.run(this.context());
        } catch (error) {
          this.failed({ extensionPath: matched.command.sourceInfo.path, event: "command", error: error instanceof Error ? error.message : String(error) });
        }
      },
    };
  }

  /** Runs the shortcut bound to `keyId`; false when there is none. */
  shortcut(keyId: string): boolean {
    const shortcut = this.shortcuts?.forKey(keyId);
    if (!shortcut) return false;
    void (async () => {
      try {
        await shortcut.handler(this.context());
      } catch (error) {
        this.failed({ extensionPath: shortcut.extensionPath, event: "shortcut", error: error instanceof Error ? error.message : String(error) });
      }
    })();
    return true;
  }

  /** The event view's status lines (spinner, queue), shown between the widgets above the editor. */
  setViewStatus(lines: readonly string[]): void {
    this.viewStatus = lines;
    this.draw();
  }

  private context(): CommandContext {
    return commandContextFor(this.options.extensions, this.ui);
  }

  private failed(failure: CommandFailure | { extensionPath: string; event: string; error: string }): void {
    this.options.host.error(extensionErrorText(failure));
  }

  private notice(message: string, type: NoticeType): void {
    const { host } = this.options;
    if (type === "error") host.error(message);
    else if (type === "warning") host.warn(message);
    else host.info(message);
  }

  private async edit(title: string, text: string): Promise<string | undefined> {
    this.options.host.info(title);
    const { editor } = this.options;
    editor.suspend();
    // Output meanwhile would land in the editor's screen: it is printed once the editor is closed.
    editor.holdOutput();
    try {
      return await editExternally(text);
    } finally {
      editor.resume();
      editor.releaseOutput();
    }
  }

  private draw(): void {
    const { editor } = this.options;
    editor.setStatus([...this.extra.above, ...this.viewStatus]);
    editor.setFooter([...this.extra.below, ...(this.extra.status ? [this.extra.status] : [])]);
  }
}
