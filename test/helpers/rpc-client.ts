/**
 * A small RPC client for tests: spawns the built binary in `--mode rpc`, sends commands, and
 * collects every line it prints. `request` waits for the command's response; `waitIdle` waits
 * until a run (with its retries and compactions) has settled.
 */
import { expect } from "bun:test";
import { pigBinary } from "./binary.ts";

export type Line = Record<string, unknown>;

export class RpcClient {
  readonly lines: Line[] = [];
  readonly stderr: string[] = [];
  private readonly proc: ReturnType<typeof Bun.spawn>;
  private waiters: (() => void)[] = [];
  private counter = 0;
  private lastLineAt = Date.now();

  constructor(options: { cwd: string; env: Record<string, string>; args?: string[] }) {
    this.proc = Bun.spawn([pigBinary(), "--mode", "rpc", ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    void this.read(this.proc.stdout as ReadableStream<Uint8Array>, (line) => {
      this.lines.push(JSON.parse(line));
      this.lastLineAt = Date.now();
      for (const wake of this.waiters.splice(0)) wake();
    });
    void this.read(this.proc.stderr as ReadableStream<Uint8Array>, (line) => this.stderr.push(line));
  }

  private async read(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    // Parts of the current line: a huge line arrives in many chunks, and only the newest chunk
    // needs searching for its end.
    let parts: string[] = [];
    for await (const chunk of stream) {
      let text = decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = text.indexOf("\n")) >= 0) {
        parts.push(text.slice(0, nl));
        onLine(parts.join(""));
        parts = [];
        text = text.slice(nl + 1);
      }
      if (text) parts.push(text);
    }
  }

  /** pig's process id (to read its memory use from /proc). */
  get pid(): number {
    return this.proc.pid;
  }

  /** Writes raw text to pig's stdin. */
  write(text: string): void {
    const stdin = this.proc.stdin as import("bun").FileSink;
    stdin.write(text);
    stdin.flush();
  }

  send(command: Line): void {
    this.write(`${JSON.stringify(command)}\n`);
  }

  async waitFor(predicate: (line: Line, index: number) => boolean, timeoutMs = 15_000, from = 0): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.lines.length; i++) {
        if (!predicate(this.lines[i]!, i)) continue;
        // The awaited line is an assertion about what pig sent: count it as one.
        expect(this.lines[i]).toBeDefined();
        return this.lines[i]!;
      }
      if (Date.now() > deadline) throw new Error(`timed out; last lines: ${JSON.stringify(this.lines.slice(-5)).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Sends a command (with a fresh id unless it has one) and waits for its response. */
  async request(command: Line, timeoutMs?: number): Promise<Line> {
    const id = (command.id as string | undefined) ?? `t-${++this.counter}`;
    const from = this.lines.length;
    this.send({ ...command, id });
    return this.waitFor((l) => l.type === "response" && l.id === id, timeoutMs, from);
  }

  /** Sends a prompt (it must be accepted) and waits until the run it starts is over. */
  async promptAndWait(message: string): Promise<void> {
    const from = this.lines.length;
    const response = await this.request({ type: "prompt", message });
    if (response.success !== true) throw new Error(`prompt refused: ${JSON.stringify(response)}`);
    await this.waitIdle(from);
  }

  /** Waits until the agent is idle: a finished run, nothing retrying or compacting, and quiet. */
  async waitIdle(from: number, quietMs = 250, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let running = false;
      let retrying = false;
      let compacting = false;
      for (const line of this.lines.slice(from)) {
        if (line.type === "agent_start") running = true;
        if (line.type === "agent_end") running = false;
        if (line.type === "auto_retry_start") retrying = true;
        if (line.type === "auto_retry_end") retrying = false;
        if (line.type === "compaction_start") compacting = true;
        if (line.type === "compaction_end") compacting = false;
      }
      if (!running && !retrying && !compacting && Date.now() - this.lastLineAt >= quietMs) return;
      if (Date.now() > deadline) throw new Error("agent did not become idle");
      await Bun.sleep(25);
    }
  }

  /** Closes stdin and waits for pig to exit. */
  async close(): Promise<number> {
    (this.proc.stdin as import("bun").FileSink).end();
    return this.proc.exited;
  }

  kill(): void {
    this.proc.kill();
  }

  /** Sends SIGTERM and waits for the exit code. */
  async terminate(): Promise<number> {
    this.proc.kill("SIGTERM");
    return this.proc.exited;
  }
}
