/**
 * Calls into the C library through Bun's FFI, for what the runtime does not offer or offers
 * slowly: whether a descriptor is a terminal, and `flock(2)`, the lock on an open file that the
 * kernel drops with the process. When the library cannot be opened (Windows, no FFI) each
 * function says so and its caller falls back.
 */
import { fstatSync } from "node:fs";
import type { Pointer } from "bun:ffi";

// Loaded on first use: a run whose stdin and stdout are a pipe, a file or /dev/null never needs it.
type Ffi = typeof import("bun:ffi");
let ffiModule: Ffi | undefined;
const ffi = (): Ffi => (ffiModule ??= require("bun:ffi") as Ffi);

const CANDIDATES: Record<string, string[]> = {
  linux: ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"],
  darwin: ["libc.dylib", "/usr/lib/libSystem.B.dylib"],
  freebsd: ["libc.so.7"],
};

/** The first library of this platform's C library names that has all of `symbols`, or null. */
function openFirst<T>(symbols: Parameters<Ffi["dlopen"]>[1], bind: (found: Record<string, (...args: never[]) => unknown>) => T): T | null {
  for (const name of CANDIDATES[process.platform] ?? []) {
    try {
      const { symbols: found } = ffi().dlopen(name, symbols);
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
  if (process.platform === "linux" && surelyNotTerminal(fd)) return false;
  tty ??= openFirst({ isatty: { args: [ffi().FFIType.i32], returns: ffi().FFIType.i32 } }, (s) => ({ isatty: s.isatty as unknown as Tty["isatty"] }));
  // The runtime's own answer is correct but slow on a cold start (`process.stdin.isTTY` builds
  // Node's stream machinery, ~10–20 ms), while `isatty(3)` costs microseconds.
  if (tty) return tty.isatty(fd) === 1;
  // node:tty pulls in the stream modules, so it is loaded only when needed.
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

/** Memory devices (/dev/null, /dev/zero, /dev/urandom …) have major number 1 on Linux. */
const LINUX_MEM_MAJOR = 1;

/**
 * What `fstat` settles without the C library: only a character device can be a terminal, and on
 * Linux never a memory device. A descriptor that is not open is no terminal either.
 */
function surelyNotTerminal(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return !stats.isCharacterDevice() || ((stats.rdev >> 8) & 0xfff) === LINUX_MEM_MAJOR;
  } catch {
    return true;
  }
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
      flock: { args: [ffi().FFIType.i32, ffi().FFIType.i32], returns: ffi().FFIType.i32 },
      [ERRNO_SYMBOL]: { args: [], returns: ffi().FFIType.ptr },
    },
    (s) => {
      const errnoAt = s[ERRNO_SYMBOL] as unknown as () => Pointer | null;
      return {
        flock: s.flock as unknown as Flock["flock"],
        errno: () => {
          const at = errnoAt();
          return at ? ffi().read.i32(at, 0) : 0;
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
