/** Buffered writing to stdout that copes with large outputs and closed pipes. */

const FLUSH_AT = 1 << 20;

export class Output {
  private readonly sink = Bun.stdout.writer();
  private pending = 0;

  write(chunk: string | Uint8Array): void {
    this.pending += typeof chunk === "string" ? chunk.length : chunk.byteLength;
    this.sink.write(chunk);
    if (this.pending >= FLUSH_AT) {
      this.pending = 0;
      void this.sink.flush();
    }
  }

  line(text = ""): void {
    this.write(`${text}\n`);
  }

  async end(): Promise<void> {
    await this.sink.flush();
  }
}
