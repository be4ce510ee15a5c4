/**
 * The uid of the process on the other end of a connected Unix socket, as the kernel recorded it
 * when the connection was made (Linux `SO_PEERCRED`, the BSDs' and macOS's `getpeereid`). It
 * cannot be forged by the peer, unlike anything the peer says about itself. Bun exposes neither,
 * so the C library is called through FFI on the socket's own descriptor: the connection checked
 * is the one then used.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";

type PeerUidOf = (fd: number) => number;

const LIBRARIES: Record<string, string[]> = {
  linux: ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"],
  darwin: ["libc.dylib", "/usr/lib/libSystem.B.dylib"],
  freebsd: ["libc.so.7"],
};

// Linux (x86-64 and arm64, where pig runs): SOL_SOCKET = 1, SO_PEERCRED = 17, struct ucred {pid, uid, gid}.
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;

let opened: PeerUidOf | string | undefined;

function open(): PeerUidOf | string {
  if (opened !== undefined) return opened;
  const names = LIBRARIES[process.platform];
  if (!names) return (opened = `not supported on ${process.platform}`);
  let lastError = "no C library found";
  for (const name of names) {
    try {
      opened = process.platform === "linux" ? linuxPeerUid(name) : bsdPeerUid(name);
      return opened;
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  return (opened = lastError);
}

function linuxPeerUid(library: string): PeerUidOf {
  const { symbols } = dlopen(library, {
    getsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  return (fd) => {
    const cred = new Int32Array(3);
    const length = new Uint32Array([cred.byteLength]);
    if (symbols.getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ptr(cred), ptr(length)) !== 0) throw new Error("getsockopt(SO_PEERCRED) failed");
    return cred[1]! >>> 0;
  };
}

function bsdPeerUid(library: string): PeerUidOf {
  const { symbols } = dlopen(library, {
    getpeereid: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  return (fd) => {
    const uid = new Uint32Array(1);
    const gid = new Uint32Array(1);
    if (symbols.getpeereid(fd, ptr(uid), ptr(gid)) !== 0) throw new Error("getpeereid failed");
    return uid[0]!;
  };
}

/**
 * Opens the C library's call now (a first `dlopen` compiles its stub: ~1 ms, more on a busy
 * machine), for a caller that has time to spare before its first connection arrives.
 */
export function preparePeerUid(): void {
  open();
}

/** The peer's uid, or why it cannot be known (no such call on this platform, a failed call). */
export function socketPeerUid(fd: number): { uid: number } | { error: string } {
  const peerUid = open();
  if (typeof peerUid === "string") return { error: peerUid };
  try {
    return { uid: peerUid(fd) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * Why the peer must not be trusted, or undefined when it runs as `uid` (the caller's own user).
 * Where there are no uids (Windows) there is nothing to compare and nothing is refused.
 */
export function peerUidProblem(fd: number | undefined, uid: number | undefined = process.getuid?.()): string | undefined {
  if (uid === undefined) return undefined;
  if (fd === undefined || fd < 0) return "its peer cannot be checked: the socket has no descriptor";
  const peer = socketPeerUid(fd);
  if ("error" in peer) return `its peer cannot be checked: ${peer.error}`;
  return peer.uid === uid ? undefined : `its peer runs as uid ${peer.uid}, not ${uid}`;
}
