/**
 * `pi.exec` with upstream's semantics: no shell, `{stdout, stderr, code, killed}`, a timeout or
 * abort sends SIGTERM and SIGKILL 5 s later; a spawn failure is code 1, a signal death code 0.
 */
import type { ExecOptions, ExecResult } from "../api/types.ts";

const KILL_GRACE_MS = 5_000;

export function execCommand(command: string, args: readonly string[], cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let killed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    // node:child_process brings Node's stream modules: a runner loads them when an extension
    // first runs a command, not at start-up.
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(command, [...args], { cwd: options.cwd ?? cwd, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    const kill = (): void => {
      if (killed) return;
      killed = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    };
    const onAbort = (): void => kill();
    if (options.signal?.aborted) kill();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.timeout && options.timeout > 0) timer = setTimeout(kill, options.timeout);
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const finish = (code: number): void => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ stdout, stderr, code, killed });
    };
    child.on("error", (error) => {
      stderr += error.message;
      finish(1);
    });
    child.on("close", (code) => finish(code ?? 0));
  });
}
