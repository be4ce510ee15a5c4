/**
 * One `pig --mode rpc` process and the lines it exchanges: commands out with an id each, their
 * responses matched back, every other line handed to the listeners. Whatever ends the exchange
 * (the process exits, it cannot be started, a line that is not JSON) fails the calls still
 * waiting with an error that says what happened. Node's standard library only.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { LineSplitter } from "../util/line-splitter.ts";
import type { RpcEvent, RpcResponse } from "./rpc-types.ts";

/** The last characters of stderr kept for error messages. */
const STDERR_KEPT = 16_000;

/** A command pig refused (`success: false`): `command` names it, the message is pig's. */
export class RpcCommandError extends Error {
  override readonly name = "RpcCommandError";
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(`pig rpc ${command}: ${message}`);
  }
}

/** The connection to pig ended (it exited, it could not start, it wrote what is not JSON): calls waiting fail with it. */
export class RpcConnectionError extends Error {
  override readonly name = "RpcConnectionError";
  constructor(
    message: string,
    /** pig's exit code (null: a signal ended it, or it never started). */
    readonly exitCode: number | null = null,
    readonly stderr = "",
  ) {
    super(message);
  }
}

interface Pending {
  command: string;
  /** Told as the response is read, before any line after it. */
  onAnswered?: () => void;
  resolve(data: unknown): void;
  reject(error: Error): void;
}

export interface SpawnSpec {
  binary: string;
  args: string[];
  cwd?: string;
  env: Record<string, string | undefined>;
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join(" | ");
}

export class RpcConnection {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: RpcEvent) => void>();
  private readonly endListeners = new Set<(error: RpcConnectionError) => void>();
  private nextId = 0;
  private stderrText = "";
  private ended: RpcConnectionError | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  /** Settles once the process is gone (however it went). */
  readonly exited: Promise<void>;

  private constructor(child: ChildProcessWithoutNullStreams, binary: string) {
    this.child = child;
    const stdout = new LineSplitter();
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      for (const line of stdout.push(text)) this.receive(line);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      this.stderrText = (this.stderrText + text).slice(-STDERR_KEPT);
    });
    // A write after pig exited fails with EPIPE; the exit's error says more, so this one is dropped.
    child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      child.on("error", (error) => {
        this.end(new RpcConnectionError(`pig rpc: could not run ${binary}: ${error.message}`));
        resolve();
      });
      child.on("close", (code, signal) => {
        const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
        const stderr = lastLines(this.stderrText, 5);
        this.end(new RpcConnectionError(`pig rpc: pig ${how}${stderr ? `: ${stderr}` : ""}`, code, this.stderrText));
        resolve();
      });
    });
  }

  /** Starts pig; resolves once the process runs, rejects when it cannot be started. */
  static async open(spec: SpawnSpec): Promise<RpcConnection> {
    const child = spawn(spec.binary, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"] });
    const connection = new RpcConnection(child, spec.binary);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => reject(new RpcConnectionError(`pig rpc: could not run ${spec.binary}: ${error.message}`)));
    });
    return connection;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Why the connection ended, or undefined while it is open. */
  get endedWith(): RpcConnectionError | undefined {
    return this.ended;
  }

  onEvent(listener: (event: RpcEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection ends, with why; at once when it already has. */
  onEnd(listener: (error: RpcConnectionError) => void): () => void {
    if (this.ended) {
      listener(this.ended);
      return () => undefined;
    }
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * Sends a command; resolves with its response's `data`, rejects with pig's error or the
   * connection's end. `onAnswered` runs when the response is read, before the lines after it
   * (which may come in the same read, ahead of the promise's continuation).
   */
  call(command: { type: string } & Record<string, unknown>, onAnswered?: () => void): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = `sdk-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { command: command.type, resolve, reject, ...(onAnswered ? { onAnswered } : {}) });
      this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  }

  /** Writes a line that has no response (an answer to an extension's dialog). */
  write(line: Record<string, unknown>): void {
    if (!this.ended) this.child.stdin.write(`${JSON.stringify(line)}\n`);
  }

  /** Ends pig's input (pig finishes what was asked and exits), then waits; SIGTERM after `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.child.stdin.end();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    const how = await Promise.race([this.exited.then(() => "exited" as const), late]);
    clearTimeout(timer);
    if (how === "late") {
      this.child.kill("SIGTERM");
      await this.exited;
    }
  }

  private receive(text: string): void {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // pig writes only JSON on stdout: anything else means this is not pig's RPC mode (a wrong binary, a wrapper printing).
      const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
      this.failPending(new RpcConnectionError(`pig rpc: pig wrote a line that is not JSON: ${shown}`));
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.failPending(new RpcConnectionError(`pig rpc: pig wrote a line that is not a JSON object: ${line.slice(0, 200)}`));
      return;
    }
    const record = parsed as { type?: unknown; id?: unknown };
    if (record.type === "response") {
      const response = parsed as RpcResponse;
      const waiting = typeof response.id === "string" ? this.pending.get(response.id) : undefined;
      if (waiting) {
        this.pending.delete(response.id as string);
        waiting.onAnswered?.();
        if (response.success) waiting.resolve(response.data);
        else waiting.reject(new RpcCommandError(waiting.command, response.error));
      } else if (response.command === "parse" && !response.success) {
        // pig could not read a line the client wrote: nothing can be matched to it, so every call waiting hears why.
        this.failPending(new RpcConnectionError(`pig rpc: pig could not read a command: ${response.error}`));
      }
      return;
    }
    for (const listener of [...this.listeners]) listener(parsed as RpcEvent);
  }

  private failPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const call of waiting) call.reject(error);
  }

  private end(error: RpcConnectionError): void {
    if (this.ended) return;
    this.ended = error;
    this.failPending(error);
    for (const listener of [...this.endListeners]) listener(error);
    this.endListeners.clear();
  }
}
