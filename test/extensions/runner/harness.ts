/**
 * Plays pig's side of pig-ext/1 for runner tests: listens on a real Unix socket, answers the
 * handshake and the runner's requests, records everything it is sent, and spawns the runner
 * (`bun src/cli/main.ts __extension-runner`, or the built binary) with the launch environment.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Socket } from "bun";
import { Connection, type RequestContext } from "../../../src/extensions/connection.ts";
import { WriteQueue } from "../../../src/extensions/framing.ts";
import { ENV_PROTOCOL, ENV_SOCKET, ENV_TOKEN, PROTOCOL } from "../../../src/extensions/protocol.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures", "extensions");

export interface Received {
  method: string;
  params: Record<string, unknown>;
  kind: "request" | "notification";
}

export interface HarnessOptions {
  load: string[];
  mode?: "interactive" | "print" | "json" | "rpc";
  hasUI?: boolean;
  flags?: Record<string, boolean | string>;
  maxFrameBytes?: number;
  /** The answer to `session.subscribe`. */
  snapshot?: (params: Record<string, unknown>) => { header: string; entries: string[]; leafId: string | null; sessionFile?: string; file?: { path: string; offset: number; length: number; count: number } };
  /** Answers for host methods; default `{}`. `ctx` sends progress and sees a cancel. */
  answers?: Record<string, (params: Record<string, unknown>, ctx: RequestContext) => unknown>;
  /** Run the compiled binary instead of the sources. */
  binary?: string;
  cwd?: string;
  /** Environment changes for the runner (undefined removes a variable). */
  env?: Record<string, string | undefined>;
}

export class RunnerHarness {
  readonly received: Received[] = [];
  conn: Connection | undefined;
  proc: ReturnType<typeof Bun.spawn> | undefined;
  stderr = "";
  private readonly dir = mkdtempSync(join(tmpdir(), "pig-ext-test-"));
  private readonly token = crypto.randomUUID().replaceAll("-", "");
  private server: ReturnType<typeof Bun.listen> | undefined;
  private socket: Socket<undefined> | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: HarnessOptions) {}

  get socketPath(): string {
    return join(this.dir, "host.sock");
  }

  private record(entry: Received): void {
    this.received.push(entry);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `predicate` holds over what was received (checked on every arrival). */
  async waitFor<T>(predicate: () => T | undefined | false, what = "condition"): Promise<T> {
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (this.proc?.exitCode !== null && this.proc?.exitCode !== undefined) throw new Error(`runner exited (${this.proc.exitCode}) while waiting for ${what}\n${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  find(method: string, match: (p: Record<string, unknown>) => boolean = () => true): Received | undefined {
    return this.received.find((r) => r.method === method && match(r.params));
  }

  all(method: string): Received[] {
    return this.received.filter((r) => r.method === method);
  }

  async start(): Promise<void> {
    const o = this.options;
    const answer = (method: string, params: Record<string, unknown>, ctx: RequestContext): unknown => {
      if (method === "initialize") {
        if (params.token !== this.token) throw new Error("bad token");
        return {
          protocol: PROTOCOL,
          maxFrameBytes: o.maxFrameBytes ?? 8 * 1024 * 1024,
          host: { name: "pig", version: "test" },
          load: o.load.map((path) => ({ id: path, path })),
          session: { cwd: o.cwd ?? ROOT, mode: o.mode ?? "interactive", hasUI: o.hasUI ?? true },
          flags: o.flags ?? {},
        };
      }
      if (method === "session.subscribe") return o.snapshot?.(params) ?? { header: '{"type":"session","id":"s1"}', entries: [], leafId: null };
      if (method === "register") return { diagnostics: [] };
      const custom = o.answers?.[method];
      return custom ? custom(params, ctx) : {};
    };
    this.server = Bun.listen<undefined>({
      unix: this.socketPath,
      socket: {
        open: (socket) => {
          this.socket = socket;
          const queue = new WriteQueue((bytes) => socket.write(bytes));
          (socket as unknown as { queue: WriteQueue }).queue = queue;
          this.conn = new Connection({
            send: (bytes) => queue.push(bytes),
            maxFrameBytes: o.maxFrameBytes ?? 8 * 1024 * 1024,
            onRequest: (method, params, ctx) => {
              const p = (params ?? {}) as Record<string, unknown>;
              this.record({ method, params: p, kind: "request" });
              return answer(method, p, ctx);
            },
            onNotification: (method, params) => this.record({ method, params: (params ?? {}) as Record<string, unknown>, kind: "notification" }),
          });
        },
        data: (_socket, data) => this.conn?.receive(data),
        drain: (socket) => (socket as unknown as { queue: WriteQueue }).queue.drain(),
        close: () => {
          this.conn?.close();
          this.record({ method: "$closed", params: {}, kind: "notification" });
        },
      },
    });
    const cmd = o.binary ? [o.binary, "__extension-runner"] : [process.execPath, join(ROOT, "src", "cli", "main.ts"), "__extension-runner"];
    this.proc = Bun.spawn(cmd, {
      cwd: ROOT,
      env: withChanges({ ...process.env, [ENV_SOCKET]: this.socketPath, [ENV_TOKEN]: this.token, [ENV_PROTOCOL]: PROTOCOL, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }, o.env),
      stdout: "ignore",
      stderr: "pipe",
    });
    void (async () => {
      const reader = (this.proc!.stderr as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.stderr += decoder.decode(value);
        for (const w of this.waiters.splice(0)) w();
      }
    })();
    void this.proc.exited.then(() => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Waits until every extension reported `ready`. */
  async ready(): Promise<Received[]> {
    await this.waitFor(() => this.all("ready").length >= this.options.load.length, "ready");
    return this.all("ready");
  }

  registrations(path: string): Record<string, unknown[]> {
    const merged: Record<string, unknown[]> = {};
    for (const r of this.all("register")) {
      if (r.params.extension !== path) continue;
      for (const [k, v] of Object.entries(r.params)) if (Array.isArray(v)) (merged[k] ??= []).push(...v);
    }
    return merged;
  }

  request(method: string, params: unknown, options: { signal?: AbortSignal; onProgress?: (v: unknown) => void } = {}): Promise<unknown> {
    return this.conn!.request(method, params, options);
  }

  notify(method: string, params: unknown): void {
    this.conn!.notify(method, params);
  }

  /** Closes the socket from pig's side (as when pig dies). */
  dropSocket(): void {
    this.socket?.terminate();
  }

  async stop(): Promise<void> {
    this.proc?.kill("SIGKILL");
    await this.proc?.exited;
    this.server?.stop(true);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function withChanges(env: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...env, ...changes })) if (v !== undefined) out[k] = v;
  return out;
}

export function fixture(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}
