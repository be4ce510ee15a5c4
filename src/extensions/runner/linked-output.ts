/**
 * Where a linked extension's stray output goes. Out of process, an extension's stdout goes
 * nowhere (frames travel over the socket) and its stderr goes to its log file
 * (host/spawn.ts). A Piglet Binary's linked extensions share pig's process and its console,
 * so without this a `console.log` in an extension would land in pig's own stdout — inside RPC
 * frames or JSON events, or over the interactive screen.
 *
 * The linked runner handles every message inside an extension scope (an AsyncLocalStorage
 * context, which follows promises, timers and callbacks the extension starts from there). The
 * console's methods and the two streams' `write` are wrapped once: inside the scope, what goes
 * to stdout is dropped and what goes to stderr is appended to the (capped) log file; outside, pig's own
 * output passes untouched.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import { CappedLog } from "../../util/capped-log.ts";

interface ExtensionScope {
  /** The log file an out-of-process runner's stderr would go to. */
  logPath: string;
}

const scope = new AsyncLocalStorage<ExtensionScope>();
let installed = false;

/** Runs `fn` (and everything it starts) as extension code: its output goes where it would out of process. */
export function inExtensionScope<T>(logPath: string, fn: () => T): T {
  installCapture();
  return scope.run({ logPath }, fn);
}

/** Runs `fn` as pig's own code, even when called from extension code (the in-process pipe's deliveries). */
export function outsideExtensionScope<T>(fn: () => T): T {
  return installed ? scope.exit(fn) : fn();
}

/** One capped log per file, as an out-of-process runner's stderr gets. */
const logs = new Map<string, CappedLog>();

function toLog(current: ExtensionScope, text: string): void {
  let log = logs.get(current.logPath);
  if (!log) logs.set(current.logPath, (log = new CappedLog(current.logPath)));
  log.write(text);
}

const STDOUT_METHODS = ["log", "info", "debug", "dir", "dirxml", "table"] as const;
const STDERR_METHODS = ["error", "warn", "trace"] as const;

function installCapture(): void {
  if (installed) return;
  installed = true;
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const name of [...STDOUT_METHODS, ...STDERR_METHODS]) {
    const original = target[name];
    if (typeof original !== "function") continue;
    const toStderr = (STDERR_METHODS as readonly string[]).includes(name);
    target[name] = function (this: unknown, ...args: unknown[]) {
      const current = scope.getStore();
      if (!current) return original.apply(this === undefined ? console : this, args);
      if (toStderr) toLog(current, `${format(...args)}\n`);
    };
  }
  wrapWrite(process.stdout, () => {});
  wrapWrite(process.stderr, (current, chunk) => toLog(current, typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")));
}

type Chunk = string | Uint8Array;

function wrapWrite(stream: NodeJS.WriteStream, divert: (current: ExtensionScope, chunk: Chunk) => void): void {
  const original = stream.write;
  stream.write = function (this: NodeJS.WriteStream, chunk: Chunk, ...rest: unknown[]): boolean {
    const current = scope.getStore();
    if (!current) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    divert(current, chunk);
    const callback = rest.find((r): r is (error?: Error | null) => void => typeof r === "function");
    if (callback) queueMicrotask(() => callback(null));
    return true;
  } as typeof stream.write;
}
