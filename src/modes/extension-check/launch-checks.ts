/**
 * The launches a healthy pig never makes, to see that the extension gives up cleanly: one that
 * presents a token pig did not issue (pig's own listener refuses it), and one that reaches a
 * host speaking only a protocol the extension does not know. Either way the process must exit
 * on its own, soon, having registered nothing.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Connection, RpcError } from "../../extensions/connection.ts";
import { WriteQueue } from "../../extensions/framing.ts";
import { childEnv } from "../../extensions/host/child-env.ts";
import type { ProcessSpec } from "../../extensions/host/ext-process.ts";
import { ExtensionListener } from "../../extensions/host/listener.ts";
import { createSocketDir } from "../../extensions/host/socket-dir.ts";
import { spawnExtension } from "../../extensions/host/spawn.ts";
import { DEFAULT_MAX_FRAME_BYTES, ErrorCode, HOST_METHODS } from "../../extensions/protocol.ts";
import type { CheckResult } from "./report.ts";

export interface LaunchContext {
  spec: ProcessSpec;
  cwd: string;
  logDir: string;
  env: Record<string, string | undefined>;
  /** How long the process has to exit. */
  exitMs: number;
}

/** Runs `command` against a socket served by `serve`; resolves with its exit code, or undefined when it did not exit in time (then it is killed). */
async function launchAgainst(ctx: LaunchContext, name: string, serve: (socketPath: string) => () => void): Promise<{ code: number | null | undefined }> {
  const dir = createSocketDir();
  const stop = serve(dir.socketPath);
  try {
    const child = spawnExtension({
      command: ctx.spec.command,
      cwd: ctx.cwd,
      env: childEnv({ base: ctx.env, socketPath: dir.socketPath, token: randomBytes(16).toString("hex"), allow: ctx.spec.allowEnv }),
      logPath: join(ctx.logDir, `${name}.log`),
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([child.exited, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ctx.exitMs)))]);
    clearTimeout(timer);
    if (code === undefined) {
      child.kill("SIGKILL");
      await child.exited;
    }
    return { code };
  } finally {
    stop();
    dir.remove();
  }
}

/** pig's listener, expecting nobody: the token the process presents is refused (-32001). */
export async function checkBadToken(ctx: LaunchContext): Promise<CheckResult> {
  const name = "launch.bad-token";
  const { code } = await launchAgainst(ctx, name, (socketPath) => {
    const listener = new ExtensionListener({ socketPath, incoming: HOST_METHODS, maxFrameBytes: DEFAULT_MAX_FRAME_BYTES, handshakeTimeoutMs: ctx.exitMs, onProtocolError: () => {} });
    listener.listen();
    return () => listener.close();
  });
  if (code === undefined) return { name, status: "fail", detail: `pig refused its token (-32001), but it was still running ${ctx.exitMs} ms later` };
  return { name, status: "pass", detail: `refused (-32001); it exited${code === null ? " (killed by a signal)" : ` with code ${code}`}` };
}

/** A host that answers `initialize` with -32002: it speaks only `pig-ext/99`. */
export async function checkUnsupportedProtocol(ctx: LaunchContext): Promise<CheckResult> {
  const name = "launch.version";
  let initialized = false;
  let other: string[] = [];
  const { code } = await launchAgainst(ctx, name, (socketPath) => {
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
                  other = [...other, method];
                  throw new RpcError(ErrorCode.Unauthorized, "initialize must come first");
                }
                initialized = true;
                throw new RpcError(ErrorCode.UnsupportedProtocol, "no common protocol (host speaks pig-ext/99)", { supported: ["pig-ext/99"] });
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
  });
  if (!initialized) return { name, status: "fail", detail: "it never sent initialize to a host it could reach" };
  if (code === undefined) return { name, status: "fail", detail: `the host speaks only pig-ext/99 (-32002), but it was still running ${ctx.exitMs} ms later` };
  const extra = other.length > 0 ? `; it went on to send ${other.join(", ")}` : "";
  return { name, status: other.length > 0 ? "fail" : "pass", detail: `no common protocol (-32002); it exited${code === null ? " (killed by a signal)" : ` with code ${code}`}${extra}` };
}
