/**
 * A small RPC client for tests: spawns the built binary in `--mode rpc`, sends commands, and
 * collects every line it prints. `request` waits for the command's response; `waitIdle` waits
 * until a run (with its retries and compactions) has settled, asking pig for its state.
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
  /** Responses to the client's own queries, kept out of `lines` so they show what a user's client sees. */
  private readonly ownQueries = new Map<string, (line: Line) => void>();

  /** Lines on pig's stdout that are not JSON (none, in a working RPC mode). */
  readonly strayStdout: string[] = [];

  /** `binary`: another pig executable than dist/pig (a Piglet Binary). */
  constructor(options: { cwd: string; env: Record<string, string>; args?: string[]; binary?: string }) {
    this.proc = Bun.spawn([options.binary ?? pigBinary(), "--mode", "rpc", ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    void this.read(this.proc.stdout as ReadableStream<Uint8Array>, (text) => {
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        this.strayStdout.push(text);
        return;
      }
      const own = line.type === "response" ? this.ownQueries.get(String(line.id)) : undefined;
      if (own) {
        this.ownQueries.delete(String(line.id));
        own(line);
        return;
      }
      this.lines.push(line);
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

  /**
   * Sends a prompt (it must be accepted) and waits until the run it starts is over; `timeoutMs`
   * bounds a failing run only (a run of heavy work on a loaded machine may want more).
   */
  async promptAndWait(message: string, timeoutMs?: number): Promise<void> {
    const from = this.lines.length;
    const response = await this.request({ type: "prompt", message });
    if (response.success !== true) throw new Error(`prompt refused: ${JSON.stringify(response)}`);
    await this.waitIdle(from, undefined, timeoutMs);
  }

  /**
   * Waits until the agent is idle: no run (with its retries and compactions) and no compaction
   * going. pig's `get_state` decides — a prompt's response comes before its run's first event, so
   * the events alone cannot tell a run that is over from one that has not begun. The events
   * since `from` only say when asking is worth it. (`_quietMs` is unused; older callers pass it.)
   */
  async waitIdle(from = 0, _quietMs?: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.eventsShowWork(from)) {
        const state = (await this.ownQuery({ type: "get_state" }, deadline)).data as { isStreaming: boolean; isCompacting: boolean };
        if (!state.isStreaming && !state.isCompacting) return;
      }
      if (Date.now() > deadline) throw new Error(`agent did not become idle; last lines: ${JSON.stringify(this.lines.slice(-5)).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Whether the lines since `from` show a run, retry or compaction that has not ended. */
  private eventsShowWork(from: number): boolean {
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
    return running || retrying || compacting;
  }

  /** A command of the client's own, its response kept out of `lines`. */
  private async ownQuery(command: Line, deadline: number): Promise<Line> {
    const id = `rpc-client-${++this.counter}`;
    const answered = new Promise<Line>((resolve) => this.ownQueries.set(id, resolve));
    this.send({ ...command, id });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no response to ${String(command.type)}; last lines: ${JSON.stringify(this.lines.slice(-5)).slice(0, 2000)}`)),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for pig to exit on its own (stdin stays open), with its exit code. */
  exited(): Promise<number> {
    return this.proc.exited;
  }

  /** Closes stdin and waits for pig to exit. */
  async close(): Promise<number> {
    (this.proc.stdin as import("bun").FileSink).end();
    return this.proc.exited;
  }

  kill(): void {
    this.proc.kill();
  }

  /** Sends the signal (SIGTERM unless told) and waits for the exit code. */
  async terminate(signal: NodeJS.Signals = "SIGTERM"): Promise<number> {
    this.proc.kill(signal);
    return this.proc.exited;
  }
}
