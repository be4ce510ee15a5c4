/**
 * Running an external search program (rg, fd) for a tool call: its output arrives line by line,
 * stderr is kept for the error message, and aborting the call kills the program.
 */
import { LineSplitter } from "../util/line-splitter.ts";
import type { ChildProcess } from "node:child_process";
import { abortError } from "./abort.ts";

export interface SearchProcessOptions<T> {
  /** The program's name in "Failed to run <name>" (e.g. "ripgrep"). */
  name: string;
  cwd?: string;
  signal: AbortSignal;
  /** One line of stdout, without its "\n" (the last one too, if it has none); `child` may be killed. */
  onLine: (line: string, child: ChildProcess) => void;
  /** Once the program has exited (and the call was not aborted): the result, or a throw to fail. */
  onExit: (code: number | null, stderr: string) => T;
}

export async function runSearchProcess<T>(command: string, args: string[], options: SearchProcessOptions<T>): Promise<T> {
  const { signal, onLine } = options;
  // Loaded when a search runs: node:child_process brings Node's streams, which start-up can do without.
  const { spawn } = await import("node:child_process");
  if (signal.aborted) throw abortError();
  return new Promise<T>((resolve, reject) => {
    const child = spawn(command, args, {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let aborted = false;
    let stderr = "";
    const lines = new LineSplitter();
    let settled = false;

    const onAbort = () => {
      aborted = true;
      child.kill();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      fn();
    };

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      for (const line of lines.push(chunk)) onLine(line, child);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => settle(() => reject(new Error(`Failed to run ${options.name}: ${error.message}`))));
    child.on("close", (code) => {
      const last = lines.take();
      if (last) onLine(last, child);
      settle(() => {
        if (aborted) return reject(abortError());
        try {
          resolve(options.onExit(code, stderr));
        } catch (error) {
          reject(error);
        }
      });
    });
  });
}
