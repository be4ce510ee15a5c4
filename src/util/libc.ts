/**
 * Whether a descriptor is a terminal, answered by the C library for start-up speed: the runtime's
 * own answer is correct but slow on a cold start (`process.stdin.isTTY` builds Node's stream
 * machinery, ~10–20 ms), while `isatty(3)` costs microseconds. When the library cannot be opened
 * (another platform, no FFI) the runtime's answer is used instead.
 */
import { dlopen, FFIType } from "bun:ffi";

interface Libc {
  isatty(fd: number): number;
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
      });
      opened = { isatty: (fd) => symbols.isatty(fd) as number };
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
