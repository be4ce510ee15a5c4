/**
 * Ctrl+Z: gives the terminal back and stops pig's process group as a shell job (a wrapper such
 * as `bun run` and running tools stop with it; so does a request in flight). The stop takes
 * effect before `kill` returns, so the prompt is taken back once `fg` continues pig. Without a
 * job-control shell (pig started directly by tmux or a terminal) the kernel drops the signal and
 * the prompt simply stays.
 */
export function suspendToShell(editor: { suspend(): void; resume(): void }): void {
  if (process.platform === "win32") return;
  editor.suspend();
  try {
    process.kill(0, "SIGTSTP");
  } finally {
    editor.resume();
  }
}
