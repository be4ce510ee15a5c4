/**
 * The launches a healthy pig never makes, to see that the extension gives up cleanly: one that
 * presents a token pig did not issue (pig's own listener refuses it), and one that reaches a
 * host speaking only a protocol the extension does not know. Either way the process must exit
 * on its own, soon, having registered nothing. A process that never reaches the socket cannot
 * show either, and is not passed for it: the check says it did not run, and why.
 */
import { randomBytes } from "node:crypto";
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { Connection, RpcError } from "../../extensions/connection.ts";
import { WriteQueue } from "../../extensions/framing.ts";
import { childEnv } from "../../extensions/host/child-env.ts";
import type { ProcessSpec } from "../../extensions/host/process-specs.ts";
import { createSocketDir } from "../../extensions/host/socket-dir.ts";
import { programPath, spawnExtension } from "../../extensions/host/spawn.ts";
import { DEFAULT_MAX_FRAME_BYTES, ErrorCode, HOST_METHODS } from "../../extensions/protocol.ts";
import type { CheckResult } from "./report.ts";
import { logTail } from "./stderr-tail.ts";

export interface LaunchContext {
  spec: ProcessSpec;
  cwd: string;
  logDir: string;
  env: Record<string, string | undefined>;
  /** How long the process has to exit. */
  exitMs: number;
}

/**
 * Why the extension's program cannot be started, or undefined when it can: the path tried and
 * the system's word (ENOENT, EACCES). Asked before any launch, as pig's `sh` guard would turn
 * either into a bare exit code (127, 126).
 */
export function programProblem(spec: ProcessSpec, cwd: string, env: Record<string, string | undefined>): string | undefined {
  if (spec.kind === "linked") return undefined;
  const [file] = spec.command;
  if (!file) return "the manifest's command is empty";
  let path: string;
  try {
    path = programPath(file, { cwd, env: { PATH: env.PATH ?? "" } });
  } catch {
    return file.includes("/") ? `ENOENT: ${file} does not exist` : `ENOENT: ${file} was not found on PATH`;
  }
  try {
    if (statSync(path).isDirectory()) return `EACCES: ${path} is a directory, not a program`;
    accessSync(path, constants.X_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EACCES";
    return `${code}: ${path} cannot be run (${code === "EACCES" ? "it is not executable: chmod +x it" : (error as Error).message})`;
  }
  return undefined;
}

interface Launched {
  /** Its exit code; undefined when it did not exit in time (then it was killed). */
  code: number | null | undefined;
  /** The last lines it wrote to stderr. */
  stderr: string | undefined;
}

/** Runs the extension against a socket served by `serve`, until it exits or `exitMs` passes. */
async function launchAgainst(ctx: LaunchContext, name: string, serve: (socketPath: string) => () => void): Promise<Launched> {
  const dir = createSocketDir();
  const stop = serve(dir.socketPath);
  const logPath = join(ctx.logDir, `${name}.log`);
  try {
    const child = spawnExtension({
      command: ctx.spec.command,
      cwd: ctx.cwd,
      env: childEnv({ base: ctx.env, socketPath: dir.socketPath, token: randomBytes(16).toString("hex"), allow: ctx.spec.allowEnv }),
      logPath,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([child.exited, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ctx.exitMs)))]);
    clearTimeout(timer);
    if (code === undefined) {
      child.kill("SIGKILL");
      await child.exited;
    }
    await child.logged;
    return { code, stderr: logTail(logPath) };
  } finally {
    stop();
    dir.remove();
  }
}

interface HostSeen {
  /** It sent `initialize` (with whatever token). */
  initialized: boolean;
  /** What it sent after its `initialize` was refused. */
  other: string[];
}

/**
 * A host that refuses every `initialize` with `refusal`, as pig's listener does (the error leaves,
 * then the connection ends), and notes what the process sent.
 */
function refusingHost(socketPath: string, refusal: () => RpcError, seen: HostSeen): () => void {
  const server = Bun.listen<{ conn: Connection; queue: WriteQueue }>({
    unix: socketPath,
    socket: {
      open(socket) {
        const queue = new WriteQueue((bytes) => socket.write(bytes));
        socket.data = {
          queue,
          conn: new Connection({
            send: (bytes) => queue.push(bytes),
            maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
            incoming: HOST_METHODS,
            onProtocolError: () => {},
            onRequest: (method) => {
              if (method !== "initialize") {
                seen.other = [...seen.other, method];
                throw new RpcError(ErrorCode.Unauthorized, "initialize must come first");
              }
              seen.initialized = true;
              queueMicrotask(() => setTimeout(() => socket.end(), 0));
              throw refusal();
            },
            onNotification: () => {},
          }),
        };
      },
      data: (socket, bytes) => socket.data.conn.receive(bytes),
      drain: (socket) => socket.data.queue.drain(),
      close: (socket) => socket.data.conn.close(),
      error: (socket) => socket.data.conn.close(),
    },
  });
  return () => server.stop(true);
}

const exitedText = (code: number | null) => (code === null ? "it exited (killed by a signal)" : `it exited with code ${code}`);

/** What a check that could not run says: the process never reached the host, so nothing was shown. */
function notReached(name: string, what: string, { code, stderr }: Launched, exitMs: number): CheckResult {
  if (code === undefined) {
    return { name, status: "fail", detail: `it never connected to the socket in ${exitMs} ms (killed); ${what} was not tried`, ...(stderr ? { stderr } : {}) };
  }
  return { name, status: "skip", detail: `not run: ${exitedText(code)} without connecting, so ${what} was never tried`, ...(stderr ? { stderr } : {}) };
}

/** pig's answer to a token it did not issue: -32001, then the connection ends. The process must give up. */
export async function checkBadToken(ctx: LaunchContext): Promise<CheckResult> {
  const name = "launch.bad-token";
  const seen: HostSeen = { initialized: false, other: [] };
  const launched = await launchAgainst(ctx, name, (socketPath) => refusingHost(socketPath, () => new RpcError(ErrorCode.Unauthorized, "unknown or already used token"), seen));
  if (!seen.initialized) return notReached(name, "a refused token", launched, ctx.exitMs);
  return afterRefusal(name, "refused (-32001)", launched, seen, ctx.exitMs);
}

/** A host that answers `initialize` with -32002: it speaks only `pig-ext/99`. */
export async function checkUnsupportedProtocol(ctx: LaunchContext): Promise<CheckResult> {
  const name = "launch.version";
  const seen: HostSeen = { initialized: false, other: [] };
  const launched = await launchAgainst(ctx, name, (socketPath) =>
    refusingHost(socketPath, () => new RpcError(ErrorCode.UnsupportedProtocol, "no common protocol (host speaks pig-ext/99)", { supported: ["pig-ext/99"] }), seen),
  );
  if (!seen.initialized) return notReached(name, "a host of another protocol", launched, ctx.exitMs);
  return afterRefusal(name, "no common protocol (-32002)", launched, seen, ctx.exitMs);
}

/** Passed when the refused process went away on its own, soon, sending nothing more. */
function afterRefusal(name: string, refused: string, launched: Launched, seen: HostSeen, exitMs: number): CheckResult {
  const stderr = launched.stderr ? { stderr: launched.stderr } : {};
  if (launched.code === undefined) return { name, status: "fail", detail: `${refused}, but it was still running ${exitMs} ms later`, ...stderr };
  const extra = seen.other.length > 0 ? `; it went on to send ${seen.other.join(", ")}` : "";
  const status = seen.other.length > 0 ? "fail" : "pass";
  return { name, status, detail: `${refused}; ${exitedText(launched.code)}${extra}`, ...(status === "fail" ? stderr : {}) };
}
