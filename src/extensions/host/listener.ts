/**
 * The one socket every extension process of this pig connects to, and the handshake that turns
 * a fresh connection into a trusted one: first frame `initialize`, a token issued for exactly
 * one launch, a peer of our own user (the kernel's record of the connection where the platform
 * gives it, and /proc for the pid it states), and a protocol both sides speak. Until then the
 * connection can do nothing else.
 */
import { chmodSync, rmSync } from "node:fs";
import type { Socket, UnixSocketListener } from "bun";
import * as v from "valibot";
import { Connection, type IncomingSchemas, type RequestContext, RpcError } from "../connection.ts";
import { describeIssues } from "../issue-text.ts";
import { WriteQueue } from "../framing.ts";
import { ErrorCode, HOST_METHODS, type InitializeParams, InitializeParamsSchema, type InitializeResult, SUPPORTED_PROTOCOLS } from "../protocol.ts";
import { createMemoryPair, type MemoryScopes } from "../memory-pipe.ts";
import type { SocketPipe } from "../runner/socket-pipe.ts";
import { socketPeerUid } from "../../util/socket-peer.ts";
import { peerProblem } from "./peer.ts";

export interface BoundHandlers {
  onRequest(method: string, params: unknown, ctx: RequestContext): unknown;
  onNotification(method: string, params: unknown): void;
  onClose(): void;
}

export interface AcceptResult {
  result: InitializeResult;
  handlers: BoundHandlers;
}

/** What a launch waiting for its process to call in provides. */
export interface PendingLaunch {
  /** The process group the peer must belong to (the spawned child's pid). */
  pgid(): number | undefined;
  /**
   * The handshake passed: bind the connection; returns the initialize result — later, for a
   * process started before its host (prestart.ts), which the `initialize` waits for.
   */
  accept(conn: Connection, params: InitializeParams, close: () => void): AcceptResult | Promise<AcceptResult>;
  /** Linked into pig's process: its token is good only on an in-process connection. */
  inProcess?: boolean;
}

/** What the listener needs of a transport: a socket, or the host's side of a memory pair. */
interface Endpoint {
  write(bytes: Uint8Array): number;
  end(): void;
}

interface SocketData {
  endpoint: Endpoint;
  inProcess: boolean;
  /** The kernel's uid of the connecting process, when the platform tells it. */
  peerUid?: number;
  conn: Connection;
  queue: WriteQueue;
  handlers?: BoundHandlers;
  /** A valid `initialize` waits for the host its process was started for (prestart.ts). */
  waitingForHost?: boolean;
}

export interface ListenerOptions {
  socketPath: string;
  incoming: IncomingSchemas;
  maxFrameBytes: number;
  /** A connection that has not initialized by then is closed. */
  handshakeTimeoutMs: number;
  onProtocolError(message: string): void;
}

/**
 * The listener a host serves its extension processes on (the host's methods, protocol errors left
 * to each connection), listening at `socketPath`. The prestarted runner's (prestart.ts) is made
 * here too, with the host's default limits, so that a host can take it over.
 */
export function listenForHost(socketPath: string, limits: { maxFrameBytes: number; handshakeTimeoutMs: number }): ExtensionListener {
  const listener = new ExtensionListener({ socketPath, incoming: HOST_METHODS, ...limits, onProtocolError: () => {} });
  listener.listen();
  return listener;
}

export class ExtensionListener {
  private readonly launches = new Map<string, PendingLaunch>();
  private server: UnixSocketListener<SocketData> | undefined;
  private readonly sockets = new Set<Socket<SocketData>>();

  constructor(private readonly options: ListenerOptions) {}

  listen(): void {
    rmSync(this.options.socketPath, { force: true });
    this.server = Bun.listen<SocketData>({
      unix: this.options.socketPath,
      socket: {
        open: (socket) => this.open(socket),
        data: (socket, bytes) => socket.data.conn.receive(bytes),
        drain: (socket) => socket.data.queue.drain(),
        close: (socket) => this.closed(socket),
        error: (socket) => this.closed(socket),
      },
    });
    chmodSync(this.options.socketPath, 0o600);
  }

  /** Accept exactly one connection presenting `token`. */
  expect(token: string, launch: PendingLaunch): () => void {
    this.launches.set(token, launch);
    return () => this.launches.delete(token);
  }

  close(): void {
    for (const s of this.sockets) s.end();
    this.server?.stop(true);
    this.server = undefined;
    rmSync(this.options.socketPath, { force: true });
  }

  /**
   * A connection from inside pig's process (a Piglet Binary's linked extensions): the same
   * Connection, handshake and handlers as a socket's, over a memory pair (memory-pipe.ts).
   */
  connectInProcess(scopes?: MemoryScopes): SocketPipe {
    const { runner, host } = createMemoryPair(scopes);
    const data = this.attach(host.endpoint, true);
    host.onData((bytes) => data.conn.receive(bytes));
    host.onClose(() => {
      if (data.handlers) data.handlers.onClose();
      else data.conn.close(new Error("connection closed"));
    });
    return runner;
  }

  private open(socket: Socket<SocketData>): void {
    this.sockets.add(socket);
    socket.data = this.attach(socket, false);
    const peer = socketPeerUid((socket as unknown as { fd?: number }).fd ?? -1);
    if ("uid" in peer) socket.data.peerUid = peer.uid;
  }

  private attach(endpoint: Endpoint, inProcess: boolean): SocketData {
    const queue = new WriteQueue((bytes) => endpoint.write(bytes));
    const data: SocketData = {
      endpoint,
      inProcess,
      queue,
      conn: new Connection({
        send: (bytes) => queue.push(bytes),
        maxFrameBytes: this.options.maxFrameBytes,
        incoming: this.options.incoming,
        onProtocolError: (m) => this.options.onProtocolError(m),
        onRequest: (method, params, ctx) => {
          if (data.handlers) return data.handlers.onRequest(method, params, ctx);
          return this.handshake(data, method, params);
        },
        onNotification: (method, params) => data.handlers?.onNotification(method, params),
      }),
    };
    const timer = setTimeout(() => {
      if (!data.handlers && !data.waitingForHost) endpoint.end();
    }, this.options.handshakeTimeoutMs);
    timer.unref?.();
    return data;
  }

  private handshake(data: SocketData, method: string, raw: unknown): InitializeResult | Promise<InitializeResult> {
    const refuse = (code: number, message: string, extra?: unknown): never => {
      // Let the error response leave before the connection goes.
      queueMicrotask(() => setTimeout(() => data.endpoint.end(), 0));
      throw new RpcError(code, message, extra);
    };
    if (method !== "initialize") return refuse(ErrorCode.Unauthorized, "initialize must come first");
    const parsed = v.safeParse(InitializeParamsSchema, raw);
    if (!parsed.success) return refuse(ErrorCode.InvalidParams, `Invalid params for initialize: ${describeIssues(parsed.issues)}`);
    const params = parsed.output;
    const launch = this.launches.get(params.token);
    if (!launch) return refuse(ErrorCode.Unauthorized, "unknown or already used token");
    // Single use whatever comes next: a token refused for its peer or protocol is spent too.
    this.launches.delete(params.token);
    if ((launch.inProcess ?? false) !== data.inProcess) return refuse(ErrorCode.Unauthorized, "unknown or already used token");
    // Without a pid the peer's uid and group could not be checked: the field is required.
    if (params.pid === undefined) return refuse(ErrorCode.Unauthorized, "initialize is missing the required field pid (the peer's process id)");
    // The kernel's word, which a peer cannot state falsely as it could its pid.
    const uid = process.getuid?.();
    if (data.peerUid !== undefined && uid !== undefined && data.peerUid !== uid) return refuse(ErrorCode.Unauthorized, `peer runs as uid ${data.peerUid}, not ${uid}`);
    const problem = peerProblem(params.pid, launch.pgid());
    if (problem) return refuse(ErrorCode.Unauthorized, problem);
    if (!params.protocols.some((p) => SUPPORTED_PROTOCOLS.includes(p))) {
      return refuse(ErrorCode.UnsupportedProtocol, `no common protocol (host speaks ${SUPPORTED_PROTOCOLS.join(", ")})`, {
        supported: SUPPORTED_PROTOCOLS,
      });
    }
    const accepted = launch.accept(data.conn, params, () => data.endpoint.end());
    if (accepted instanceof Promise) {
      data.waitingForHost = true;
      return accepted.then(({ result, handlers }) => {
        data.handlers = handlers;
        return result;
      });
    }
    data.handlers = accepted.handlers;
    return accepted.result;
  }

  private closed(socket: Socket<SocketData>): void {
    if (!this.sockets.delete(socket)) return;
    const data = socket.data;
    // A bound connection is closed by its owner, which knows better why (e.g. the exit code).
    if (data.handlers) data.handlers.onClose();
    else data.conn.close(new Error("connection closed"));
  }
}
