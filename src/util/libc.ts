/**
 * Calls into the C library through Bun's FFI, for what the runtime does not offer or offers
 * slowly: whether a descriptor is a terminal, and `flock(2)`, the lock on an open file that the
 * kernel drops with the process. When the library cannot be opened (Windows, no FFI) each
 * function says so and its caller falls back.
 */
import { dlopen, FFIType, read, type Pointer } from "bun:ffi";

const CANDIDATES: Record<string, string[]> = {
  linux: ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"],
  darwin: ["libc.dylib", "/usr/lib/libSystem.B.dylib"],
  freebsd: ["libc.so.7"],
};

/** The first library of this platform's C library names that has all of `symbols`, or null. */
function openFirst<T>(symbols: Parameters<typeof dlopen>[1], bind: (found: Record<string, (...args: never[]) => unknown>) => T): T | null {
  for (const name of CANDIDATES[process.platform] ?? []) {
    try {
      const { symbols: found } = dlopen(name, symbols);
      return bind(found as unknown as Record<string, (...args: never[]) => unknown>);
    } catch {
      // Not this name (or no FFI here); try the next.
    }
  }
  return null;
}

interface Tty {
  isatty(fd: number): number;
}

let tty: Tty | null | undefined;

/** Whether `fd` is a terminal. */
export function isTerminal(fd: number): boolean {
  tty ??= openFirst({ isatty: { args: [FFIType.i32], returns: FFIType.i32 } }, (s) => ({ isatty: s.isatty as unknown as Tty["isatty"] }));
  // The runtime's own answer is correct but slow on a cold start (`process.stdin.isTTY` builds
  // Node's stream machinery, ~10–20 ms), while `isatty(3)` costs microseconds.
  if (tty) return tty.isatty(fd) === 1;
  // node:tty pulls in the stream modules, so it is loaded only when needed.
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

interface Flock {
  flock(fd: number, operation: number): number;
  errno(): number;
}

let flockLib: Flock | null | undefined;

// Where errno lives: glibc and musl name the function one way, the BSDs and macOS another.
const ERRNO_SYMBOL = process.platform === "linux" ? "__errno_location" : "__error";

function openFlock(): Flock | null {
  flockLib ??= openFirst(
    {
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      [ERRNO_SYMBOL]: { args: [], returns: FFIType.ptr },
    },
    (s) => {
      const errnoAt = s[ERRNO_SYMBOL] as unknown as () => Pointer | null;
      return {
        flock: s.flock as unknown as Flock["flock"],
        errno: () => {
          const at = errnoAt();
          return at ? read.i32(at, 0) : 0;
        },
      };
    },
  );
  return flockLib;
}

const LOCK_EX = 2;
const LOCK_NB = 4;
// EWOULDBLOCK: 11 on Linux, 35 on macOS and the BSDs.
const WOULD_BLOCK = process.platform === "linux" ? 11 : 35;

export type FlockResult =
  | { kind: "locked" }
  /** Another open file (another process, or another open of this file here) holds the lock. */
  | { kind: "busy" }
  /** No flock here (no C library, or the file system refuses it: `errno` says why). */
  | { kind: "unsupported"; errno?: number };

/**
 * Takes the exclusive `flock` of the open file `fd` without waiting. It belongs to that open
 * file and goes when it is closed, or when the process ends however it ends.
 */
export function tryExclusiveFlock(fd: number): FlockResult {
  const lib = openFlock();
  if (!lib) return { kind: "unsupported" };
  if (lib.flock(fd, LOCK_EX | LOCK_NB) === 0) return { kind: "locked" };
  const errno = lib.errno();
  return errno === WOULD_BLOCK ? { kind: "busy" } : { kind: "unsupported", errno };
}
