/**
 * The shared TypeScript runner, started before the run knows which extensions it loads. Its
 * start (the Bun runtime, the runner's modules, the connection) takes about as long as pig's own
 * start-up up to the point where the extensions are known (settings, trust, the session), and
 * does not depend on them: the list of what to load is only in the answer to its `initialize`.
 * So the process is spawned early, its socket and listener made for it, and the host that comes
 * later takes all three over (`ExtensionHost`) and answers the `initialize` that waited for it.
 * A run that ends up with no shared runner (no TypeScript extensions, other options) stops it.
 */
import { join } from "node:path";
import { randomHex } from "../../util/light-crypto.ts";
import type { CredentialVars } from "../../ai/credential-vars.ts";
import { DEFAULT_MAX_FRAME_BYTES } from "../protocol.ts";
import { childEnv } from "./child-env.ts";
import { type AcceptResult, type ExtensionListener, listenForHost, type PendingLaunch } from "./listener.ts";
import { SHARED_RUNNER_NAME } from "./process-specs.ts";
import { runnerCommand } from "./runner-command.ts";
import { createSocketDir, type SocketDir } from "./socket-dir.ts";
import { type SpawnedProcess, spawnExtension } from "./spawn.ts";
import { DEFAULT_TIMING } from "./timing.ts";

export interface PrestartOptions {
  cwd: string;
  agentDir: string;
  /** The environment the runner inherits (credentials filtered out, as for any extension process). */
  env: Record<string, string | undefined>;
  credentials?: () => CredentialVars;
}

/** What a host takes over: the socket's directory, its listener, and the process dialling it. */
export interface PrestartedParts {
  dir: SocketDir;
  listener: ExtensionListener;
  token: string;
  child: SpawnedProcess;
  /** Hands the process's handshake to `launch` (at once if it arrived already); returns a cancel. */
  adopt(launch: PendingLaunch): () => void;
}

export class PrestartedRunner {
  private adopted: PendingLaunch | undefined;
  private parked: ((launch: PendingLaunch | undefined) => void)[] = [];
  private taken = false;
  private exited = false;
  private calledInNow: () => void = () => {};
  /** Settles once the process has called in (its `initialize` arrived), taken over or not. */
  readonly calledIn = new Promise<void>((resolve) => (this.calledInNow = resolve));
  private takenOverNow: () => void = () => {};
  /**
   * Settles once a host has taken the process over (its `initialize`, if it had arrived, is then
   * answered and the process loads its extensions); never for a process no host takes.
   */
  readonly takenOver = new Promise<void>((resolve) => (this.takenOverNow = resolve));

  private constructor(
    readonly options: PrestartOptions,
    private readonly dir: SocketDir,
    private readonly listener: ExtensionListener,
    private readonly token: string,
    private readonly child: SpawnedProcess,
  ) {
    void child.exited.then(() => (this.exited = true));
  }

  /** Spawns the runner; undefined when it cannot be (the host will say why, if it needs one). */
  static start(options: PrestartOptions): PrestartedRunner | undefined {
    let dir: SocketDir | undefined;
    let listener: ExtensionListener | undefined;
    try {
      dir = createSocketDir();
      // The listener a host makes with its default options (host.ts); a host with other options starts its own.
      listener = listenForHost(dir.socketPath, { maxFrameBytes: DEFAULT_MAX_FRAME_BYTES, handshakeTimeoutMs: DEFAULT_TIMING.launchTimeoutMs });
      const token = randomHex(16);
      const child = spawnExtension({
        command: runnerCommand(),
        cwd: options.cwd,
        env: childEnv({ base: options.env, socketPath: dir.socketPath, token, ...(options.credentials ? { credentials: options.credentials() } : {}) }),
        logPath: join(options.agentDir, "extensions", "logs", `${SHARED_RUNNER_NAME}.log`),
      });
      const runner = new PrestartedRunner(options, dir, listener, token, child);
      listener.expect(token, { pgid: () => child.pid, accept: (conn, params, close) => runner.accept(conn, params, close) });
      return runner;
    } catch {
      listener?.close();
      dir?.remove();
      return undefined;
    }
  }

  /**
   * The parts, once, for a host whose shared runner this process can be: the same working
   * directory and agent dir (its log), pig's own runner command, and the process still there.
   */
  take(want: { cwd: string; agentDir: string; command: readonly string[] }): PrestartedParts | undefined {
    if (this.taken || this.exited) return undefined;
    if (want.cwd !== this.options.cwd || want.agentDir !== this.options.agentDir || !sameCommand(want.command, runnerCommand())) return undefined;
    this.taken = true;
    return {
      dir: this.dir,
      listener: this.listener,
      token: this.token,
      child: this.child,
      adopt: (launch) => {
        this.adopted = launch;
        for (const wake of this.parked.splice(0)) wake(launch);
        this.takenOverNow();
        return () => {
          if (this.adopted === launch) this.adopted = undefined;
        };
      },
    };
  }

  /** The process's id. */
  get pid(): number {
    return this.child.pid;
  }

  /** The socket it dials. */
  get socketPath(): string {
    return this.dir.socketPath;
  }

  /** Ends the process and its socket unless a host took them over. */
  stop(): void {
    if (this.taken) return;
    this.taken = true;
    for (const wake of this.parked.splice(0)) wake(undefined);
    this.child.kill("SIGKILL");
    this.listener.close();
    this.dir.remove();
  }

  /** The handshake, answered once a host has taken the process over (or refused if it is stopped). */
  private accept(...args: Parameters<PendingLaunch["accept"]>): AcceptResult | Promise<AcceptResult> {
    this.calledInNow();
    if (this.adopted) return this.adopted.accept(...args);
    return new Promise((resolve, reject) => {
      this.parked.push((launch) => {
        if (!launch) reject(new Error("the extension runner is no longer needed"));
        else {
          try {
            resolve(launch.accept(...args));
          } catch (error) {
            reject(error);
          }
        }
      });
    });
  }
}

function sameCommand(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
