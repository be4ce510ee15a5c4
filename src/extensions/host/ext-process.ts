/**
 * One extension process through its lives: spawn, handshake, registration, running, and — after
 * a crash or a hang — a restart with backoff, until it has failed too often and is disabled.
 * Each life is a generation; whatever arrives from an older generation is ignored.
 */
import { join } from "node:path";
import { randomHex } from "../../util/light-crypto.ts";
import { type Connection, PartStreamStalled, type RequestContext, type RequestOptions } from "../connection.ts";
import type { InitializeParams, InitializeResult, ReadyParams, RegisterParams } from "../protocol.ts";
import type { CredentialVars } from "../../ai/credential-vars.ts";
import { childEnv } from "./child-env.ts";
import { exitDetail, logSize } from "./exit-detail.ts";
import type { BoundHandlers, ExtensionListener } from "./listener.ts";
import type { HostObserver } from "./observer.ts";
import { LivenessWatch } from "./liveness.ts";
import type { PrestartedParts } from "./prestart.ts";
import { type SpawnedProcess, spawnExtension } from "./spawn.ts";
import { CallStats } from "./stats.ts";
import type { HostTiming } from "./timing.ts";
import type { ProcessSpec } from "./process-specs.ts";

export type ProcessState = "idle" | "starting" | "running" | "restarting" | "disabled" | "failed" | "stopped";

/** What the process needs from the host that owns it. */
export interface ProcessOwner {
  listener: ExtensionListener;
  socketPath: string;
  cwd: string;
  logDir: string;
  baseEnv: Record<string, string | undefined>;
  credentials(): CredentialVars;
  timing: HostTiming;
  /** The process started before the host (prestart.ts), for the first life of the process it fits. */
  takePrestarted?(proc: ExtensionProcess): PrestartedParts | undefined;
  initializeResult(proc: ExtensionProcess, params: InitializeParams): InitializeResult;
  onRegister(proc: ExtensionProcess, params: RegisterParams): unknown;
  onReady(proc: ExtensionProcess, params: ReadyParams): void;
  onRunning(proc: ExtensionProcess): void;
  onCall(proc: ExtensionProcess, method: string, params: unknown, ctx: RequestContext): unknown;
  onNotification(proc: ExtensionProcess, method: string, params: unknown): void;
  onDown(proc: ExtensionProcess, detail: string): void;
  onDisabled(proc: ExtensionProcess, detail: string): void;
  observer?: HostObserver;
}

/** The process went away under a request: mapped to a message naming the extension. */
export class ProcessDown extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

export class ExtensionProcess {
  state: ProcessState;
  generation = 0;
  lastError: string | undefined;
  private child: SpawnedProcess | undefined;
  private conn: Connection | undefined;
  private liveness: LivenessWatch | undefined;
  private starting: Promise<void> | undefined;
  private everRan = false;
  private restarts: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Calls waiting for a scheduled restart to be tried. */
  private restartWaiters: (() => void)[] = [];
  private readonly stats = new Map<string, CallStats>();

  constructor(
    readonly spec: ProcessSpec,
    private readonly owner: ProcessOwner,
  ) {
    this.state = spec.lazy ? "idle" : "starting";
  }

  get ids(): string[] {
    return this.spec.single ? [this.spec.single] : this.spec.load.map((l) => l.id);
  }

  get pid(): number | undefined {
    if (this.state !== "running" && this.state !== "starting") return undefined;
    // Linked extensions run in pig's own process.
    return this.spec.kind === "linked" ? process.pid : this.child?.pid;
  }

  get logPath(): string {
    return join(this.owner.logDir, `${this.spec.name.replace(/[^\w.-]+/g, "_")}.log`);
  }

  statsFor(id: string): CallStats {
    let s = this.stats.get(id);
    if (!s) this.stats.set(id, (s = new CallStats()));
    return s;
  }

  /** Resolves when every extension of the process said `ready`; rejects if it never gets there. */
  start(): Promise<void> {
    if (this.state === "running") return Promise.resolve();
    if (this.starting) return this.starting;
    if (this.state === "disabled" || this.state === "stopped" || this.state === "failed") {
      return Promise.reject(new Error(this.unavailable()));
    }
    this.starting = this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async request(extension: string, method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.state === "idle") await this.start();
    // A call made while the process comes back after a crash waits for it (once) instead of failing.
    if (this.state === "restarting") await new Promise<void>((resolve) => this.restartWaiters.push(resolve));
    if (this.state === "starting" && this.starting) await this.starting.catch(() => {});
    const conn = this.conn;
    if (this.state !== "running" || !conn) throw new Error(`Extension "${extension}" ${this.unavailable()}`);
    const done = this.liveness?.begin() ?? (() => {});
    const t0 = performance.now();
    try {
      this.owner.observer?.sent?.(this.ids, method, params);
      return await conn.request(method, params, options);
    } catch (err) {
      if (err instanceof ProcessDown) throw new Error(`Extension "${extension}" ${err.detail}`);
      if (err instanceof PartStreamStalled) throw new Error(`Extension "${extension}" stopped sending an answer: ${err.message}`, { cause: err });
      throw err;
    } finally {
      done();
      this.statsFor(extension).record(performance.now() - t0);
    }
  }

  notify(method: string, params: unknown): void {
    if (this.state !== "running" || !this.conn) return;
    this.owner.observer?.sent?.(this.ids, method, params);
    this.conn.notify(method, params);
  }

  /**
   * Closes the connection without a word (no `shutdown`), as a crashed pig would, and does not
   * restart the process: resolves with its exit code, or undefined if it is still running after
   * `waitMs` (it is then killed).
   */
  async disconnect(waitMs: number): Promise<number | null | undefined> {
    const child = this.child;
    this.state = "stopped";
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.liveness?.stop();
    this.closeSocket?.();
    this.conn?.close(new ProcessDown("was disconnected"));
    if (!child) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([child.exited, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), waitMs)))]);
    clearTimeout(timer);
    if (code === undefined) child.kill("SIGKILL");
    return code;
  }

  private closeSocket: (() => void) | undefined;
  /** Settles once the current connection's socket has closed: everything it carried has been read. */
  private socketEnded: Promise<void> = Promise.resolve();

  async shutdown(reason: string): Promise<void> {
    const child = this.child;
    const wasUp = this.state === "running" || this.state === "starting";
    this.state = "stopped";
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.wakeRestartWaiters();
    this.liveness?.stop();
    if (this.spec.kind === "linked" && wasUp) {
      this.conn?.notify("shutdown", { reason });
      this.closeSocket?.();
      this.conn?.close(new ProcessDown("was shut down"));
      return;
    }
    if (!child || !wasUp) return;
    this.conn?.notify("shutdown", { reason });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = () => new Promise<"grace">((r) => (timer = setTimeout(() => r("grace"), this.owner.timing.shutdownGraceMs)));
    // pig's runner ends its socket and closes its end of the log once its work is done, then
    // kills its group (runner/main.ts): with both ends, its last messages (an error from a
    // handler of the run's last event, say) have been read, its last words are in the log, and
    // nothing of it runs on. Its process ends a few ms later, once the kernel has taken back a
    // runtime's memory: pig does not wait for that, nor stay for it. Any other program is done
    // when it exits.
    const done = this.spec.runner ? Promise.race([Promise.all([child.logged, this.socketEnded]).then(() => "logged" as const), child.exited]) : child.exited;
    const ended = await Promise.race([done, grace()]);
    clearTimeout(timer);
    if (ended === "logged") {
      this.conn?.close(new ProcessDown("was shut down"));
      // Should the runner not get as far as its group, the group is killed after the grace.
      const fallback = setTimeout(() => child.kill("SIGKILL"), this.owner.timing.shutdownGraceMs);
      fallback.unref?.();
      void child.exited.then(() => clearTimeout(fallback));
      child.unref();
      return;
    }
    // Whatever the extension started in its group goes too, exited or not.
    child.kill("SIGKILL");
    this.conn?.close(new ProcessDown("was shut down"));
    await child.exited;
    // Its last words are still in the pipe; a helper that left the group may hold it open, so not for long.
    await Promise.race([child.logged, grace()]);
    clearTimeout(timer);
  }

  private unavailable(): string {
    switch (this.state) {
      case "disabled":
        return `is disabled after repeated crashes${this.lastError ? ` (last: ${this.lastError})` : ""}`;
      case "failed":
        return `failed to start${this.lastError ? `: ${this.lastError}` : ""}`;
      case "stopped":
        return "has been shut down";
      default:
        return `is restarting${this.lastError ? ` (${this.lastError})` : ""}`;
    }
  }

  private launch(): Promise<void> {
    const generation = ++this.generation;
    this.state = "starting";
    // The prestarted runner, for the first life of the shared runner: already spawned and dialling in.
    const prestarted = generation === 1 && this.spec.kind !== "linked" ? this.owner.takePrestarted?.(this) : undefined;
    const token = prestarted?.token ?? randomHex(16);
    const waiting = new Set(this.ids);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancelExpect();
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () => this.down(generation, `did not start within ${this.owner.timing.launchTimeoutMs} ms`),
        this.owner.timing.launchTimeoutMs,
      );
      this.onStartSettled = (err) => finish(err);
      const linked = this.spec.kind === "linked";
      const launch = {
        pgid: () => (generation === this.generation ? this.child?.pid : undefined),
        accept: (conn: Connection, params: InitializeParams, close: () => void) => this.accept(generation, conn, params, close, waiting, () => finish()),
        ...(linked ? { inProcess: true } : {}),
      };
      const cancelExpect = prestarted ? prestarted.adopt(launch) : this.owner.listener.expect(token, launch);
      if (linked) {
        const logPath = this.logPath;
        import("../runner/linked.ts")
          .then((m) => m.startLinkedRunner(this.owner.listener.connectInProcess(m.linkedScopes(logPath)), token, logPath))
          .catch((err: Error) => this.down(generation, `could not be started: ${err.message}`));
        return;
      }
      const log = { path: this.logPath, startedAt: logSize(this.logPath) };
      if (prestarted) {
        const child = (this.child = prestarted.child);
        void child.exited.then((code) => this.down(generation, exitDetail(code, log)));
        return;
      }
      try {
        this.child = spawnExtension({
          command: this.spec.command,
          cwd: this.owner.cwd,
          env: childEnv({ base: this.owner.baseEnv, socketPath: this.owner.socketPath, token, allow: this.spec.allowEnv, credentials: this.owner.credentials() }),
          logPath: this.logPath,
        });
      } catch (err) {
        this.down(generation, `could not be started: ${(err as Error).message}`);
        return;
      }
      const child = this.child;
      void child.exited.then((code) => this.down(generation, exitDetail(code, log)));
    });
  }

  private onStartSettled: ((err?: Error) => void) | undefined;

  private accept(
    generation: number,
    conn: Connection,
    params: InitializeParams,
    close: () => void,
    waiting: Set<string>,
    started: () => void,
  ): { result: InitializeResult; handlers: BoundHandlers } {
    this.conn = conn;
    let socketEnded!: () => void;
    this.socketEnded = new Promise<void>((resolve) => (socketEnded = resolve));
    this.liveness = this.spec.kind === "linked" ? undefined : new LivenessWatch({
      intervalMs: this.owner.timing.pingIntervalMs,
      timeoutMs: this.owner.timing.livenessTimeoutMs,
      ping: () => conn.request("ping").then(() => this.owner.observer?.pong?.(this.ids)),
      onHung: () => this.down(generation, "is not responding"),
    });
    const result = this.owner.initializeResult(this, params);
    conn.setMaxFrameBytes(result.maxFrameBytes);
    if (this.spec.kind !== "linked") conn.setPartTimeout(this.owner.timing.partTimeoutMs);
    const current = () => generation === this.generation;
    const handlers: BoundHandlers = {
      onRequest: (method, p, ctx) => {
        if (!current()) throw new ProcessDown("is restarting");
        this.owner.observer?.received?.(this.ids, method, p);
        if (method === "register") return this.owner.onRegister(this, p as RegisterParams);
        if (method === "ready") {
          const ready = p as ReadyParams;
          this.owner.onReady(this, ready);
          waiting.delete(this.resolveId(ready.extension));
          if (waiting.size === 0 && this.state === "starting") {
            this.state = "running";
            this.everRan = true;
            this.lastError = undefined;
            started();
            queueMicrotask(() => this.owner.onRunning(this));
          }
          return {};
        }
        return this.owner.onCall(this, method, p, ctx);
      },
      onNotification: (method, p) => {
        if (!current()) return;
        this.owner.observer?.received?.(this.ids, method, p);
        this.owner.onNotification(this, method, p);
      },
      onClose: () => {
        socketEnded();
        this.socketClosed(generation);
      },
    };
    this.closeSocket = close;
    return { result, handlers };
  }

  /**
   * The socket closing and the process exiting arrive together, in either order; the exit code
   * makes the better message, so a close waits briefly for it.
   */
  private socketClosed(generation: number): void {
    const child = this.child;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gone = new Promise<void>((r) => (timer = setTimeout(r, 200)));
    void Promise.race([child?.exited, gone]).then(() => {
      clearTimeout(timer);
      this.down(generation, "closed its connection");
    });
  }

  /** A one-extension process may name itself `""`. */
  resolveId(id: string): string {
    return this.spec.single && (id === "" || id === this.spec.single) ? this.spec.single : id;
  }

  private down(generation: number, detail: string): void {
    if (generation !== this.generation) return;
    if (this.state !== "running" && this.state !== "starting") return;
    const wasStarting = this.state === "starting";
    this.lastError = detail;
    this.liveness?.stop();
    this.child?.kill("SIGKILL");
    this.conn?.close(new ProcessDown(detail));
    this.conn = undefined;
    const onStart = this.onStartSettled;
    this.onStartSettled = undefined;
    if (!this.everRan) {
      this.state = "failed";
      onStart?.(new Error(detail));
      return;
    }
    this.state = "restarting";
    if (wasStarting) onStart?.(new Error(detail));
    this.owner.onDown(this, detail);
    this.scheduleRestart(detail);
  }

  private scheduleRestart(detail: string): void {
    const now = Date.now();
    const { restartWindowMs, maxRestarts, restartBackoffMs } = this.owner.timing;
    this.restarts = this.restarts.filter((t) => now - t < restartWindowMs);
    if (this.restarts.length >= maxRestarts) {
      this.state = "disabled";
      this.owner.onDisabled(this, detail);
      this.wakeRestartWaiters();
      return;
    }
    const delay = restartBackoffMs[Math.min(this.restarts.length, restartBackoffMs.length - 1)] ?? 1000;
    this.restarts.push(now);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state !== "restarting") return this.wakeRestartWaiters();
      // Started or not, the waiting calls go on: they fail with the reason when it is still down.
      const tried = this.start();
      this.wakeRestartWaiters();
      tried.catch(() => {});
    }, delay);
  }

  private wakeRestartWaiters(): void {
    for (const wake of this.restartWaiters.splice(0)) wake();
  }
}
