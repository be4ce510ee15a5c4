/**
 * Markdown for the terminal, rendered a line at a time as text streams in: headings, list
 * bullets, quotes, rules, fenced code (with its language) and inline code, bold and italic.
 * A line is printed once it is complete, so styling never has to be undone; until then the
 * caller can show `pending`, the line so far.
 */
import type { Theme } from "../theme.ts";

export class MarkdownStream {
  private partial = "";
  private inFence = false;

  private readonly codeIndent: string;

  constructor(
    private readonly theme: Theme,
    private readonly out: (text: string) => void,
    /** `codeBlockIndent`: what precedes each line of code after the block's border (default two spaces). */
    options: { codeBlockIndent?: string } = {},
  ) {
    // The border takes the first column of the indent.
    this.codeIndent = (options.codeBlockIndent ?? "  ").slice(1);
  }

  /** Adds streamed text; complete lines are rendered and printed. */
  push(text: string): void {
    this.partial += text;
    let nl: number;
    while ((nl = this.partial.indexOf("\n")) >= 0) {
      this.out(`${this.renderLine(this.partial.slice(0, nl))}\n`);
      this.partial = this.partial.slice(nl + 1);
    }
  }

  /** The line still being written (not printed yet), as it would look plain. */
  get pending(): string {
    return this.partial;
  }

  /** Ends the block: the last line is printed (with a newline) and fence state reset. */
  end(): void {
    if (this.partial) this.out(`${this.renderLine(this.partial)}\n`);
    this.partial = "";
    this.inFence = false;
  }

  renderLine(line: string): string {
    const t = this.theme;
    const fence = /^(\s*)(```|~~~)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      if (!this.inFence) {
        this.inFence = true;
        return t.fg("mdCodeBlockBorder", `${fence[1]}┌─${fence[3] ? ` ${fence[3]} ` : ""}`);
      }
      this.inFence = false;
      return t.fg("mdCodeBlockBorder", `${fence[1]}└─`);
    }
    if (this.inFence) return `${t.fg("mdCodeBlockBorder", "│")}${this.codeIndent}${t.fg("mdCodeBlock", line)}`;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) return t.bold(t.fg("mdHeading", `${heading[1]} ${inline(heading[2]!, t)}`));
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return t.fg("mdHr", "─".repeat(40));
    const quote = /^(\s*)>\s?(.*)$/.exec(line);
    if (quote) return `${quote[1]}${t.fg("mdQuoteBorder", "│ ")}${t.fg("mdQuote", inline(quote[2]!, t))}`;
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      const mark = /^\d/.test(bullet[2]!) ? bullet[2]! : "•";
      return `${bullet[1]}${t.fg("mdListBullet", mark)} ${inline(bullet[3]!, t)}`;
    }
    return inline(line, t);
  }
}

/** Inline code, bold and italic within one line. */
export function inline(text: string, t: Theme): string {
  if (!t.color) return text;
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => t.fg("mdCode", code))
    .replace(/\*\*([^*]+)\*\*/g, (_, bold: string) => t.bold(bold))
    .replace(/(^|[^*])\*([^*\s][^*]*)\*(?!\*)/g, (_, pre: string, it: string) => `${pre}${t.italic(it)}`);
}
