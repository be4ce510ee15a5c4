/**
 * Two questions answered by the C library, for start-up speed: is a descriptor a terminal, and
 * what is today's local date. The runtime's own answers are correct but slow on a cold start —
 * `process.stdin.isTTY` builds Node's stream machinery (~10–20 ms) and the first local-time
 * `Date` call loads the time-zone database (~12 ms) — while `isatty(3)` and `localtime_r(3)` cost
 * microseconds. When the library cannot be opened (another platform, no FFI) the runtime's
 * answers are used instead.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";

interface Libc {
  isatty(fd: number): number;
  /** Fills `tm` (at least 9 ints: sec, min, hour, mday, mon, year-1900, …) for `time`. */
  localtime(time: BigInt64Array, tm: Int32Array): boolean;
}

const CANDIDATES: Record<string, string[]> = {
  linux: ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"],
  darwin: ["libc.dylib", "/usr/lib/libSystem.B.dylib"],
  freebsd: ["libc.so.7"],
};

let opened: Libc | null | undefined;

function openLibc(): Libc | null {
  if (opened !== undefined) return opened;
  opened = null;
  for (const name of CANDIDATES[process.platform] ?? []) {
    try {
      const { symbols } = dlopen(name, {
        isatty: { args: [FFIType.i32], returns: FFIType.i32 },
        localtime_r: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.ptr },
      });
      opened = {
        isatty: (fd) => symbols.isatty(fd) as number,
        localtime: (time, tm) => symbols.localtime_r(ptr(time), ptr(tm)) !== null,
      };
      return opened;
    } catch {
      // Not this name (or no FFI here); try the next.
    }
  }
  return opened;
}

/** Whether `fd` is a terminal. */
export function isTerminal(fd: number): boolean {
  const libc = openLibc();
  if (libc) return libc.isatty(fd) === 1;
  // node:tty pulls in the stream modules, so it is loaded only when needed.
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

/** Today's local date as `YYYY-MM-DD`, in the time zone the process runs in (`TZ` honoured). */
export function localDate(now: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  const libc = Number.isFinite(now.getTime()) ? openLibc() : null;
  if (libc) {
    const time = new BigInt64Array([BigInt(Math.floor(now.getTime() / 1000))]);
    // struct tm is 9 ints plus, on most systems, a long offset and a zone pointer: 64 bytes is room enough.
    const tm = new Int32Array(16);
    if (libc.localtime(time, tm)) return `${(tm[5] ?? 0) + 1900}-${pad((tm[4] ?? 0) + 1)}-${pad(tm[3] ?? 0)}`;
  }
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
