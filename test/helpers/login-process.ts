/**
 * A `pig login`/`pig -p` process a test talks to while it runs: stderr and stdout read as they
 * come (so the test can wait for the URL or the device code pig prints), stdin written line by
 * line (the pasted redirect URL).
 */
import { pigBinary } from "./binary.ts";

export class PigProcess {
  readonly proc: ReturnType<typeof Bun.spawn>;
  stdout = "";
  stderr = "";
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];
  readonly exited: Promise<number>;

  constructor(args: string[], options: { env: Record<string, string | undefined>; cwd?: string }) {
    this.proc = Bun.spawn([pigBinary(), ...args], { env: options.env, cwd: options.cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const pump = async (stream: ReadableStream<Uint8Array>, into: "stdout" | "stderr") => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) {
        this[into] += decoder.decode(chunk, { stream: true });
        this.wake();
      }
    };
    const pumped = Promise.all([pump(this.proc.stdout as ReadableStream<Uint8Array>, "stdout"), pump(this.proc.stderr as ReadableStream<Uint8Array>, "stderr")]);
    this.exited = pumped.then(() => this.proc.exited);
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.check()) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  /** The first match of `pattern` in stderr, once pig printed it; fails if pig exits first. */
  async waitForStderr(pattern: RegExp): Promise<RegExpMatchArray> {
    return this.waitFor(() => this.stderr.match(pattern));
  }

  async waitForStdout(pattern: RegExp): Promise<RegExpMatchArray> {
    return this.waitFor(() => this.stdout.match(pattern));
  }

  private async waitFor(find: () => RegExpMatchArray | null): Promise<RegExpMatchArray> {
    let found = find();
    if (found) return found;
    let done = false;
    const seen = new Promise<void>((resolve) => this.waiters.push({ check: () => (found = find()) !== null || done, resolve }));
    const ended = this.exited.then(() => {
      done = true;
      this.wake();
    });
    await Promise.race([seen, ended]);
    found = find();
    if (!found) throw new Error(`pig exited without printing what the test waited for.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
    return found;
  }

  write(text: string): void {
    const stdin = this.proc.stdin as import("bun").FileSink;
    stdin.write(text);
    void stdin.flush();
  }

  endInput(): void {
    void (this.proc.stdin as import("bun").FileSink).end();
  }
}
