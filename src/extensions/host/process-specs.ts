/**
 * Which processes a host starts for its extensions: the specs of the shared runner, of each
 * extension in a process of its own, and of a Piglet Binary's linked extensions.
 */
import type { ExtensionSource } from "../discovery.ts";

/** One process a host starts: what runs in it, and how. */
export interface ProcessSpec {
  /** For the log file name and messages about the process as a whole. */
  name: string;
  /**
   * `linked`: a Piglet Binary's own extensions, run by a runner inside pig's process over an
   * in-process pipe (no command, no spawn, no liveness pings: a stuck handler there stops pig
   * itself, and no ping could be answered or missed meanwhile). Default `spawn`.
   */
  kind?: "spawn" | "linked";
  command: readonly string[];
  /** Extensions a shared runner loads (their ids are their paths). */
  load: readonly { id: string; path: string }[];
  /** The id of a process that is one extension by itself. */
  single?: string;
  allowEnv: readonly string[];
  /** Started on first use instead of with pig. */
  lazy: boolean;
  /** The runner the packed TypeScript extensions share (one per host). */
  shared?: boolean;
  /**
   * pig's TypeScript runner: told to shut down, it closes its end of the log once its work is
   * done and then kills its group, so the log's end says it is done (runner/main.ts).
   */
  runner?: boolean;
}

/** The shared runner's name: its log file, `<agent dir>/extensions/logs/typescript-runner.log`. */
export const SHARED_RUNNER_NAME = "typescript-runner";

/** The one runner the packed TypeScript extensions share. */
export function isSharedRunner(spec: ProcessSpec): boolean {
  return spec.shared === true;
}

/**
 * TypeScript extensions share one runner unless they ask for their own — or their manifest lets
 * variables through the credential filter (`env`): those are given to that extension's process
 * only, never to a runner its neighbours share. Every other kind runs alone.
 */
export function groupIntoProcesses(sources: readonly ExtensionSource[], runner: readonly string[]): ProcessSpec[] {
  const packed = (s: ExtensionSource) => s.runtime === "typescript" && !s.ownProcess && s.env.length === 0;
  const shared = sources.filter(packed);
  const specs: ProcessSpec[] = [];
  // A Piglet Binary's own extensions: one runner inside pig's process, first (ext-process.ts).
  const linked = sources.filter((s) => s.runtime === "linked");
  if (linked.length > 0) {
    specs.push({ name: "linked", kind: "linked", command: [], load: linked.map((s) => ({ id: s.id, path: s.entry })), allowEnv: [], lazy: false });
  }
  if (shared.length > 0) {
    specs.push({
      name: SHARED_RUNNER_NAME,
      command: runner,
      load: shared.map((s) => ({ id: s.id, path: s.entry })),
      allowEnv: [],
      lazy: false,
      shared: true,
      runner: true,
    });
  }
  for (const s of sources) {
    if (packed(s) || s.runtime === "linked") continue;
    const own = s.runtime === "typescript";
    specs.push({
      name: s.name,
      command: own ? runner : s.command,
      load: own ? [{ id: s.id, path: s.entry }] : [],
      ...(own ? {} : { single: s.id }),
      allowEnv: s.env,
      lazy: !s.activation.includes("onStartup"),
      ...(own ? { runner: true } : {}),
    });
  }
  return specs;
}
