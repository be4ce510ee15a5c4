/** Text arriving in pieces (a stream, a process's output), handed on a whole line at a time. */
export class LineSplitter {
  private rest = "";

  /** The line still unfinished. */
  get pending(): string {
    return this.rest;
  }

  /** Adds `text`; the lines it completed, without their `\n`. */
  push(text: string): string[] {
    const all = this.rest + text;
    const cut = all.lastIndexOf("\n");
    if (cut < 0) {
      this.rest = all;
      return [];
    }
    this.rest = all.slice(cut + 1);
    return all.slice(0, cut).split("\n");
  }

  /** The unfinished line, taken: the splitter starts over empty. */
  take(): string {
    const rest = this.rest;
    this.rest = "";
    return rest;
  }
}
