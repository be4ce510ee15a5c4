/**
 * Where what the editor sends goes. `!` commands, pig's own slash commands and then extension
 * commands run at once, even while the agent works (commands that cannot run then say so;
 * `/compact` stops the turn first). A `/name` that is none of these, nor a prompt template or
 * skill, is not sent: pig says so
 * (a path such as `/usr/bin/env …` is not a command name, and is sent). A leading `//` sends the
 * text with one slash, as typed, without expanding it. Other text is the prompt when idle, a
 * steer (Enter) or follow-up (Alt+Enter) while the agent runs, and is held while a command such
 * as `/compact` or a `/tree` summary is still working — it goes out, in order, once that command
 * ends, whether it worked or not. `@path` mentions attach their files.
 */
import type { AgentSession } from "../../agent/session.ts";
import type { BashExecutionMessage } from "../../session/format.ts";
import { attachMentions } from "./attachments.ts";
import { commandCatalog, unknownCommandMessage } from "./commands/catalog.ts";
import { findCommand, parseSlash } from "./commands/dispatch.ts";
import type { EventView } from "./event-view.ts";
import type { InteractiveHost, SlashCommand } from "./host.ts";
import type { InputEditor, SubmitKind } from "./input/index.ts";
import type { Theme } from "./theme.ts";
import { bashCommandLineRows } from "./render/transcript.ts";

export interface PromptRouterDeps {
  host: InteractiveHost;
  editor: InputEditor;
  view: EventView;
  commands: readonly SlashCommand[];
  session: () => AgentSession;
  theme: () => Theme;
  /** The extension command `text` invokes (pig's own commands are matched first). */
  extensionCommand?: (text: string) => SlashCommand | undefined;
  /** Extension commands by the names that run them, so a typed one is not called unknown. */
  extensionNames?: () => readonly { name: string; description?: string }[];
}

export class PromptRouter {
  /** A slash command is running (its dialogs may be closed while it works, e.g. a summary). */
  commandRunning = false;
  /** A `!` command is running. */
  shellRunning = false;
  private readonly held: { text: string; kind: SubmitKind }[] = [];

  constructor(private readonly deps: PromptRouterDeps) {}

  /**
   * Sends `text`. `handed` runs once it has gone where it goes (held, queued, a command or a run
   * started), so held texts are released strictly one after another.
   */
  async submit(text: string, kind: SubmitKind, handed: () => void = () => undefined): Promise<void> {
    const { host } = this.deps;
    const session = this.deps.session();
    const theme = this.deps.theme();
    let signalled = false;
    const hand = (): void => {
      if (signalled) return;
      signalled = true;
      handed();
    };
    try {
      if (text.startsWith("!")) {
        // One shell command at a time: the next waits its turn, as in a terminal.
        if (this.shellRunning) {
          this.hold(text, kind, "queued until the running command ends");
          return;
        }
        const running = this.shell(text);
        hand();
        return await running;
      }
      const slash = parseSlash(text);
      const builtin = slash ? findCommand(this.deps.commands, slash.name) : undefined;
      const extension = builtin ? undefined : this.deps.extensionCommand?.(text);
      const command = builtin ?? extension;
      if (slash && !command) {
        const known = commandCatalog(this.deps.commands, host.resources, { ...(this.deps.extensionNames ? { extensions: this.deps.extensionNames() } : {}) });
        if (!known.some((entry) => entry.name === slash.name)) {
          host.warn(unknownCommandMessage(slash.name, known));
          // Not sent, and not lost: the text is back in the editor to be mended.
          if (host.getEditorText() === "") host.setEditorText(text);
          return;
        }
      }
      if (this.commandRunning || (session.isCompacting && !session.isStreaming)) {
        this.hold(text, kind, "queued until the current command ends");
        return;
      }
      if (command) {
        // An extension command takes its arguments as typed (from the first space on), bound in `command`.
        const running = this.runCommand(command, slash?.args ?? "");
        hand();
        return await running;
      }
      // `//name …` is `/name …` as it is: no template or skill is expanded. (`// a comment` is
      // not an escape: it goes as typed.)
      const literal = /^\/\/[A-Za-z0-9]/.test(text);
      const typed = literal ? text.slice(1) : text;
      // `@path` mentions attach their files, before the message as `@file` arguments do.
      const { files, attached, skipped } = await attachMentions(typed, this.deps.session().cwd);
      if (attached.length > 0) host.print(theme.fg("dim", `attached: ${attached.join(", ")}`));
      // Not dim: a mention that attached nothing is most often a slip the user wants to know of.
      for (const s of skipped) host.print(theme.fg("warning", `not attached: @${s.path} (${s.reason})`));
      // While the agent runs, Enter steers and Alt+Enter follows up; the queue shows (and Escape
      // gives back) what was typed, `//` included; the files go with the message.
      const run = session.submit(typed, {
        source: "interactive",
        images: files.images,
        ...(attached.length > 0 ? { prefix: files.text } : {}),
        ...(literal ? { literal: true } : {}),
        streamingBehavior: kind === "alt-enter" ? "followUp" : "steer",
        queuedAs: text,
        // The run has started (or the text is queued) once it is accepted.
        onAccepted: hand,
      });
      await run;
    } catch (error) {
      host.error((error as Error).message);
    } finally {
      hand();
    }
  }

  /**
   * Runs one of pig's commands (typed, or from a key such as double Escape or Ctrl+L): text sent
   * meanwhile is held, and released when it ends, whether it worked or not.
   */
  async runCommand(command: SlashCommand, args: string): Promise<void> {
    this.commandRunning = true;
    try {
      await command.run(this.deps.host, args);
    } finally {
      this.commandRunning = false;
      void this.releaseHeld();
    }
  }

  private hold(text: string, kind: SubmitKind, why: string): void {
    this.held.push({ text, kind });
    // One of pig's own lines: wrapped to the terminal like the others, not cut at its edge. It
    // holds the text as typed, whose spaces are not a table's columns.
    this.deps.host.print(this.deps.theme().fg("dim", `${why}: ${text.split("\n")[0]}`), { table: false });
  }

  /** The held texts, taken back (Escape puts them into the editor). */
  takeHeld(): string[] {
    return this.held.splice(0).map((h) => h.text);
  }

  /** Text submitted while a command worked, sent now, strictly in order: the first as the prompt, the rest behind it. */
  private async releaseHeld(): Promise<void> {
    for (const { text, kind } of this.held.splice(0)) {
      await new Promise<void>((handed) => void this.submit(text, kind, handed));
    }
  }

  /** `!cmd` (into the context) or `!!cmd` (kept out), its output shown as it arrives. */
  private async shell(text: string): Promise<void> {
    const { editor, view } = this.deps;
    const theme = this.deps.theme();
    const exclude = text.startsWith("!!");
    const command = text.slice(exclude ? 2 : 1).trim();
    if (!command) return;
    // As the session's replay shows it: wrapped at the terminal's width, under the command.
    const { width } = this.deps.host.transcriptStyle();
    this.deps.host.print(bashCommandLineRows(command, exclude, theme, width).join("\n"), { table: false });
    this.shellRunning = true;
    editor.setBusy(true);
    view.shell.started();
    let message: BashExecutionMessage | undefined;
    try {
      ({ message } = await this.deps.session().bash(command, { exclude, onOutput: (chunk) => view.shell.output(chunk) }));
    } finally {
      // Ended, or failed to start (a missing shell): the spinner stops either way.
      view.shell.finished(message);
      this.shellRunning = false;
      // The agent may be working too: the prompt stays busy until it is done.
      editor.setBusy(this.deps.session().isStreaming);
      if (!this.commandRunning) void this.releaseHeld();
    }
  }
}
