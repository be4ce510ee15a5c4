/**
 * The signals that stop pig from outside: a script's `kill`, `timeout`, a terminal that closes.
 * Every mode answers them the same way: it stops what runs (the answer streaming, the commands
 * the tools started), so the session file keeps what happened until then, and exits with the
 * code a shell reports for a process the signal killed (128 + its number). A script reads 130,
 * 143 or 129 whether pig stopped cleanly or died of the signal.
 */
import { killRunningCommands } from "../tools/shell.ts";

export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

export const STOP_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

const ALL: readonly StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Calls `stop` with the signal's exit code on the first of `signals`. The handlers go at once,
 * so a second signal ends pig as it would without them: a stop that hangs can still be ended.
 * Returns a function that removes the handlers. A handler replaces the inherited disposition,
 * so a SIGINT a non-interactive shell set to be ignored for a background job stops pig too.
 */
export function onStopSignal(stop: (code: number, signal: StopSignal) => void, signals: readonly StopSignal[] = ALL): () => void {
  const handlers = new Map<StopSignal, () => void>();
  const remove = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    handlers.clear();
  };
  for (const signal of signals) {
    const handler = () => {
      remove();
      // Commands started by the bash tool run in their own process groups: end them too.
      killRunningCommands();
      stop(STOP_EXIT_CODES[signal], signal);
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  return remove;
}
