/**
 * A connection inside one process, for the extensions a Piglet Binary links in: the runner's
 * side is a SocketPipe (what runner/peer.ts speaks over), the host's side an endpoint the
 * listener treats like an accepted socket. Bytes go through the same framing both ways; only
 * the kernel is left out.
 *
 * Delivery is deferred (a microtask), as a socket's would be, so neither side's handler ever
 * runs inside the other's `write`. The exception is `takeSync`, for the runner's synchronous
 * reads: it hands the runner's unsent bytes to the host at once — the host answers
 * `session.subscribe` and the other synchronous reads within that call — and returns whatever
 * came back. It cannot wait (there is no other thread to wait for), so an answer the host
 * computes asynchronously is not there: `inProcess` tells the Peer not to spin.
 */
import type { PipeEvent, SocketPipe } from "./runner/socket-pipe.ts";

export interface MemoryEndpoint {
  /** Bytes to the runner; returns how many were taken (all of them). */
  write(bytes: Uint8Array): number;
  /** Closes both directions (the runner sees `closed`). */
  end(): void;
}

export interface MemoryHostSide {
  endpoint: MemoryEndpoint;
  /** Bytes from the runner, in order. */
  onData(handler: (bytes: Uint8Array) => void): void;
  /** The runner closed the connection (or the host did). */
  onClose(handler: () => void): void;
}

export interface MemoryPair {
  runner: SocketPipe & { readonly inProcess: true };
  host: MemoryHostSide;
}

/**
 * Wrappers each side's handlers run in: a linked extension's output is told apart from pig's by
 * the scope its code runs in (runner/linked-output.ts), so a delivery must not carry one side's
 * scope into the other's handler. Default: none.
 */
export interface MemoryScopes {
  runner<T>(fn: () => T): T;
  host<T>(fn: () => T): T;
}

const NO_SCOPES: MemoryScopes = { runner: (fn) => fn(), host: (fn) => fn() };

export function createMemoryPair(scopes: MemoryScopes = NO_SCOPES): MemoryPair {
  let closed = false;
  // Runner → host bytes not delivered yet, and host → runner events not taken yet.
  const toHost: Uint8Array[] = [];
  const toRunner: PipeEvent[] = [];
  let hostData: (bytes: Uint8Array) => void = () => {};
  let hostClose: () => void = () => {};
  let runnerEvent: ((event: PipeEvent) => void) | undefined;
  let scheduled = false;

  const deliverToHost = (): void =>
    scopes.host(() => {
      while (toHost.length > 0) hostData(toHost.shift()!);
    });
  const deliverToRunner = (): void =>
    scopes.runner(() => {
      if (!runnerEvent) return;
      while (toRunner.length > 0) runnerEvent(toRunner.shift()!);
    });
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      // Each side's bytes in order; what one side sends while handling goes in the next round.
      deliverToHost();
      deliverToRunner();
      if (toHost.length > 0 || (runnerEvent && toRunner.length > 0)) schedule();
    });
  };
  const shut = (): void => {
    if (closed) return;
    closed = true;
    toRunner.push({ t: "closed" });
    schedule();
    queueMicrotask(() => scopes.host(() => hostClose()));
  };

  const runner: SocketPipe & { readonly inProcess: true } = {
    inProcess: true,
    write(bytes) {
      if (closed) return;
      toHost.push(bytes);
      schedule();
    },
    onEvent(handler) {
      runnerEvent = handler;
      toRunner.unshift({ t: "open" });
      schedule();
    },
    takeSync() {
      deliverToHost();
      return toRunner.splice(0);
    },
    close() {
      // What the runner wrote before closing still reaches the host.
      deliverToHost();
      shut();
    },
  };
  const host: MemoryHostSide = {
    endpoint: {
      write(bytes) {
        if (!closed) {
          toRunner.push({ t: "data", bytes });
          schedule();
        }
        return bytes.length;
      },
      end: shut,
    },
    onData(handler) {
      hostData = handler;
    },
    onClose(handler) {
      hostClose = handler;
    },
  };
  return { runner, host };
}
