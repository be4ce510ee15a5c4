/**
 * What the session is busy with, in one place: the run, the wait before a retry, a compaction,
 * a branch summary, a move in the tree and a user shell command, each with the controller that
 * stops it. Whether the session is idle, stopping everything and waiting for it all to end are
 * answered here, so no part of the agent keeps a busy flag or an AbortController of its own.
 */
/** `prompt`: the hooks a prompt passes before its run exists (input, before_agent_start). */
export type Work = "run" | "retry" | "compaction" | "branchSummary" | "tree" | "bash" | "prompt";

export class Activity {
  private readonly controllers = new Map<Work, AbortController>();
  /** Everything under way that `waitForIdle` waits for (the run, compactions, tree moves). */
  private readonly pending = new Set<Promise<unknown>>();
  private runValue: Promise<void> | undefined;
  /** Whether the run under way (or the last one) was asked to stop (upstream's `agent_settled.aborted`). */
  private runAbortRequested = false;

  /** A fresh controller for `work`; a previous one of the same kind is forgotten, not stopped. */
  begin(work: Work): AbortController {
    const controller = new AbortController();
    this.controllers.set(work, controller);
    return controller;
  }

  /** `work` ended; only its own controller is forgotten (a newer one of the same kind stays). */
  end(work: Work, controller: AbortController): void {
    if (this.controllers.get(work) === controller) this.controllers.delete(work);
  }

  /** Runs `body` as `work`, under a controller that is forgotten once it ends. */
  async during<T>(work: Work, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = this.begin(work);
    try {
      return await body(controller.signal);
    } finally {
      this.end(work, controller);
    }
  }

  isActive(work: Work): boolean {
    return this.controllers.has(work);
  }

  /** Whether `work`'s current controller was stopped. */
  aborted(work: Work): boolean {
    return this.controllers.get(work)?.signal.aborted ?? false;
  }

  signal(work: Work): AbortSignal | undefined {
    return this.controllers.get(work)?.signal;
  }

  /** Stops `work`; false when none was under way. */
  abort(work: Work): boolean {
    const controller = this.controllers.get(work);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /** The run (prompt to settled, retries and compactions included), while there is one. */
  get run(): Promise<void> | undefined {
    return this.runValue;
  }

  /** Marks `run` as the session's run until it ends. */
  startRun(run: Promise<void>): void {
    this.runValue = run;
    this.runAbortRequested = false;
    this.track(run);
  }

  endRun(): void {
    this.runValue = undefined;
  }

  /** The current (or last) run was stopped by `stopAll` — a user's abort, not a failure. */
  get runWasAborted(): boolean {
    return this.runAbortRequested;
  }

  get isRunning(): boolean {
    return this.runValue !== undefined;
  }

  /** A compaction or a branch summary is being made. */
  get isCompacting(): boolean {
    return this.isActive("compaction") || this.isActive("branchSummary");
  }

  /** Nothing runs: no run, no compaction, no summary, nothing else `waitForIdle` waits for. */
  get isIdle(): boolean {
    return !this.isRunning && !this.isCompacting && this.pending.size === 0;
  }

  /** Counts `work` as under way until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.catch(() => undefined).finally(() => this.pending.delete(work));
    return work;
  }

  /** Stops the run (and its retry wait), a compaction and a branch summary; a shell command is left alone. */
  stopAll(): void {
    if (this.isRunning) this.runAbortRequested = true;
    for (const work of ["prompt", "run", "retry", "compaction", "branchSummary", "tree"] as const) this.abort(work);
  }

  /** Resolves once nothing tracked is under way (failures are not rethrown). */
  async waitForIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending].map((work) => work.catch(() => undefined)));
  }
}
