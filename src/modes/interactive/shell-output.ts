/**
 * A `!` command's output as it arrives, whole lines at a time under a gutter, wrapped to the
 * terminal; past BASH_LIVE_LINES only its end is shown, once it finishes, then how it ended.
 */
import type { BashExecutionMessage } from "../../session/format.ts";
import { LineSplitter } from "../../util/line-splitter.ts";
import { bashStatusRows, commandOutputRows } from "./render/transcript.ts";
import type { Theme } from "./theme.ts";

/** Lines of a `!` command's output shown as they arrive; beyond them, the end is shown when it finishes. */
const BASH_LIVE_LINES = 200;
const BASH_TAIL_LINES = 20;

export interface ShellOutputHost {
  theme(): Theme;
  width(): number;
  print(rows: readonly string[]): void;
  /** Shows a spinner saying the command runs, unless one already shows; whether this one did. */
  startSpinner(): boolean;
  stopSpinner(): void;
}

export class ShellOutput {
  private lines = new LineSplitter();
  private printed = 0;
  private capped = false;
  private ownsSpinner = false;

  constructor(private readonly host: ShellOutputHost) {}

  started(): void {
    this.lines = new LineSplitter();
    this.printed = 0;
    this.capped = false;
    // The agent's spinner, if it is working too, stays; otherwise this one shows the command runs.
    this.ownsSpinner = this.host.startSpinner();
  }

  output(text: string): void {
    const lines = this.lines.push(text);
    if (lines.length > 0) this.printLines(lines);
  }

  /** The command ended (`message`), or could not start (undefined). */
  finished(message: BashExecutionMessage | undefined): void {
    if (this.ownsSpinner) this.host.stopSpinner();
    this.ownsSpinner = false;
    const last = this.lines.take();
    if (last && !this.capped) this.printLines([last]);
    if (!message) return;
    const theme = this.host.theme();
    if (this.capped) {
      // Only the start was shown live: the end of the output follows.
      const tail = message.output.replace(/\n+$/, "").split("\n").slice(-BASH_TAIL_LINES);
      this.host.print([theme.fg("dim", `  … the last ${tail.length} lines:`)]);
      this.printRows(tail);
    } else if (this.printed === 0) this.printRows(message.output.replace(/\n+$/, "").split("\n"));
    this.host.print(bashStatusRows(message, theme));
  }

  private printRows(lines: string[]): void {
    this.host.print(commandOutputRows(lines, this.host.theme(), this.host.width()));
  }

  private printLines(lines: string[]): void {
    if (this.capped) return;
    const room = BASH_LIVE_LINES - this.printed;
    const shown = lines.slice(0, room);
    this.printed += shown.length;
    this.printRows(shown);
    if (lines.length > room) {
      this.capped = true;
      this.host.print([this.host.theme().fg("dim", "  … more output; its end is shown when the command finishes")]);
    }
  }
}
