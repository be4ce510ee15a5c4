/**
 * Escape and Ctrl+C for a sign-in in the first-run setup, where no prompt editor reads the keys:
 * while a login waits (for the browser, for a device code) pig listens on stdin itself, and stops
 * listening whenever a dialog opens, which then reads the keys (and cancels on Escape) itself.
 */
import type { Readable } from "node:stream";

export interface EscapeWatch {
  /** Runs `run` with a controller that Escape or Ctrl+C aborts while no dialog is open. */
  cancellable<T>(run: (cancel: AbortController) => Promise<T>): Promise<T>;
  /** Opens a dialog: the keys are the dialog's until it closes. */
  dialog<T>(open: () => Promise<T>): Promise<T>;
}

type KeyInput = Readable & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/** Whether a read from the terminal is Escape alone (not the start of an arrow key) or holds Ctrl+C. */
export function isCancelKey(bytes: string): boolean {
  return bytes === "\x1b" || bytes.includes("\x03");
}

export function escapeWatch(input: KeyInput = process.stdin): EscapeWatch {
  let active: AbortController | undefined;
  let dialogs = 0;
  let listening = false;
  const onData = (chunk: Buffer | string): void => {
    if (isCancelKey(typeof chunk === "string" ? chunk : chunk.toString("utf8"))) active?.abort();
  };
  const update = (): void => {
    const want = active !== undefined && !active.signal.aborted && dialogs === 0 && input.isTTY === true;
    if (want === listening) return;
    listening = want;
    if (want) {
      input.setRawMode?.(true);
      input.on("data", onData);
      input.resume();
    } else {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
    }
  };
  return {
    async cancellable(run) {
      const cancel = new AbortController();
      active = cancel;
      cancel.signal.addEventListener("abort", update, { once: true });
      update();
      try {
        return await run(cancel);
      } finally {
        active = undefined;
        update();
      }
    },
    async dialog(open) {
      dialogs++;
      update();
      try {
        return await open();
      } finally {
        dialogs--;
        update();
      }
    },
  };
}
