/**
 * A stdio MCP server: a child process that reads JSON-RPC messages from stdin and writes them
 * to stdout, one a line. Its stderr is kept (the last few KB) for the error shown when it fails.
 * It runs in a process group of its own, so stopping it also stops what a wrapper (`npx`, `uvx`)
 * started: stdin is closed, then SIGTERM, then SIGKILL goes to the group; if pig exits without
 * closing it, the group gets SIGTERM on the way out.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { LineSplitter } from "../util/line-splitter.ts";
import { McpConnectionError, type McpTransport, type TransportHandlers } from "./transport.ts";
import type { JsonRpcMessage } from "./protocol.ts";

export interface StdioOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
}

const STDERR_KEPT_BYTES = 4096;
/** How long a server has to exit after stdin closes, then after SIGTERM. */
const STDIN_GRACE_MS = 500;
const TERM_GRACE_MS = 1500;

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGTERM");
  });
}

export class StdioTransport implements McpTransport {
  private child: ChildProcess | undefined;
  private stderr = "";
  private closing = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly options: StdioOptions) {}

  get stderrTail(): string {
    return this.stderr.trim();
  }

  async start(handlers: TransportHandlers): Promise<void> {
    const child = spawn(this.options.command, [...this.options.args], {
      cwd: this.options.cwd,
      env: this.options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    this.child = child;
    const lines = new LineSplitter();
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      for (const line of lines.push(chunk)) this.deliver(line, handlers);
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT_BYTES);
    });
    // Writing to a server that has exited is told by the exit, not by an EPIPE.
    child.stdin!.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      child.once("close", (code, signal) => {
        if (child.pid !== undefined) liveGroups.delete(child.pid);
        this.child = undefined;
        resolve();
        handlers.closed(this.closing ? "closed" : `the server exited (${signal ? `signal ${signal}` : `code ${code}`})`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => reject(new McpConnectionError(`cannot start ${this.options.command}: ${error.message}`)));
    });
    if (child.pid !== undefined && process.platform !== "win32") {
      liveGroups.add(child.pid);
      installExitHook();
    }
  }

  private deliver(line: string, handlers: TransportHandlers): void {
    const text = line.trim();
    if (text === "") return;
    try {
      handlers.message(JSON.parse(text));
    } catch {
      // A line that is not JSON is the server talking on the wrong stream: kept with its stderr.
      this.stderr = (this.stderr + `${text}\n`).slice(-STDERR_KEPT_BYTES);
    }
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable) throw new McpConnectionError("the server is not running");
    await new Promise<void>((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(new McpConnectionError(error.message)) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child) return;
    const pid = child.pid;
    child.stdin?.end();
    const kill = (signal: NodeJS.Signals) => {
      if (pid !== undefined && process.platform !== "win32") signalGroup(pid, signal);
      else child.kill(signal);
    };
    const after = (ms: number) => new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref());
    // A wrapper that exits on its own may leave what it started: the group hears SIGTERM all the same.
    if ((await Promise.race([this.exited, after(STDIN_GRACE_MS)])) !== "timeout") return kill("SIGTERM");
    kill("SIGTERM");
    if ((await Promise.race([this.exited, after(TERM_GRACE_MS)])) !== "timeout") return;
    kill("SIGKILL");
    await this.exited;
  }
}
