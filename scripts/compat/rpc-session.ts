// One agent started in `--mode rpc` for the compatibility scripts: its stdout read as protocol
// lines, commands written to its stdin, waits for a line (or the process's end) with a deadline,
// and every dialog an extension opens answered "cancelled" at once, the same for pig and Pi, so
// that a dialog never holds up a run.

export type Json = Record<string, unknown>;

/** The methods of `extension_ui_request` that wait for an `extension_ui_response`. */
const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

export async function collect(stream: ReadableStream<Uint8Array>, into: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.text += decoder.decode(chunk, { stream: true });
}

export class RpcSession {
  readonly lines: Json[] = [];
  readonly stderr = { text: "" };
  exited = false;
  private readonly child: Bun.Subprocess<"pipe", "pipe", "pipe">;
  private readonly waiters = new Set<() => void>();

  constructor(argv: string[], cwd: string, env: Record<string, string>) {
    this.child = Bun.spawn(argv, { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    void collect(this.child.stderr, this.stderr);
    void this.read();
    void this.child.exited.then(() => {
      this.exited = true;
      this.wakeAll();
    });
  }

  private wakeAll(): void {
    for (const wake of this.waiters) wake();
  }

  private async read(): Promise<void> {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of this.child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let line: Json;
        try {
          line = JSON.parse(text) as Json;
        } catch {
          continue; // Not a protocol line (an extension printing to stdout).
        }
        this.lines.push(line);
        if (line.type === "extension_ui_request" && DIALOGS.has(String(line.method))) {
          this.send({ type: "extension_ui_response", id: line.id, cancelled: true });
        }
      }
      this.wakeAll();
    }
    this.wakeAll();
  }

  send(command: Json): void {
    if (this.exited) return;
    try {
      this.child.stdin.write(`${JSON.stringify(command)}\n`);
      void this.child.stdin.flush();
    } catch {
      // The agent left while a line was written: what it did until then is what counts.
    }
  }

  /** Waits until `test` holds, the process ends or `ms` pass; whether `test` held. */
  async until(test: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (this.exited || Date.now() > deadline) return test();
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 200);
        this.waiters.add(wake);
      });
    }
    return true;
  }

  async stop(): Promise<void> {
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.child.exited;
    clearTimeout(timer);
  }
}
