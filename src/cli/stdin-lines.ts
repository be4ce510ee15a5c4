/**
 * stdin as a queue of lines, read only while someone waits for one, and let go (`close`) so a
 * process whose stdin stays open can still exit.
 */
export class StdinLines {
  private reader: { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>; cancel(): Promise<void> } | undefined;
  private readonly decoder = new TextDecoder();
  private buffered = "";
  private ended = false;
  private reading: Promise<void> | undefined;

  /** The next line (without its end; possibly blank), or undefined when stdin ended or `signal` aborted first. */
  async next(signal: AbortSignal): Promise<string | undefined> {
    while (!signal.aborted) {
      const end = this.buffered.indexOf("\n");
      if (end >= 0) {
        const line = this.buffered.slice(0, end).replace(/\r$/, "");
        this.buffered = this.buffered.slice(end + 1);
        return line;
      }
      if (this.ended) {
        const rest = this.buffered.trim();
        this.buffered = "";
        return rest || undefined;
      }
      this.reading ??= this.readChunk().finally(() => {
        this.reading = undefined;
      });
      const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      await Promise.race([this.reading, aborted]);
    }
    return undefined;
  }

  private async readChunk(): Promise<void> {
    const reader = (this.reader ??= Bun.stdin.stream().getReader());
    try {
      const { done, value } = await reader.read();
      if (done) this.ended = true;
      else this.buffered += this.decoder.decode(value, { stream: true });
    } catch {
      this.ended = true;
    }
  }

  close(): void {
    this.ended = true;
    void this.reader?.cancel().catch(() => {});
  }
}
