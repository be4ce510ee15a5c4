/**
 * When and how a session compacts: after a run whose answer used more than the window allows
 * (threshold), before a request that would not fit, after the provider reports an overflow
 * (compact once, then retry without a new message), and on request (`/compact`). Summaries
 * are written as one compaction entry only once complete; the model's context is then rebuilt
 * from the file.
 */
import { isContextOverflow } from "../ai/errors.ts";
import type { AssistantMessage, Model, StreamFunction, StreamOptions } from "../ai/types.ts";
import {
  ALREADY_COMPACTED,
  calculateContextTokens,
  compact,
  estimateContextTokens,
  estimateTokens,
  isCompactionCancelled,
  isNothingToCompact,
  NOTHING_TO_COMPACT,
  prepareCompaction,
  type SummaryCall,
  type SummaryRetry,
} from "../compaction/index.ts";
import type { AgentMessage, CompactionEntry, ThinkingLevel } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { CompactionSettings } from "../resources/settings.ts";
import type { CompactionReason, CompactionResult, SessionEvent, SummarySource } from "./events.ts";

export type { CompactionSettings };

/** What the runner needs from the session it works for. */
export interface CompactionHost {
  readonly store: SessionStore;
  readonly model: Model | undefined;
  readonly thinkingLevel: ThinkingLevel;
  readonly compaction: CompactionSettings;
  readonly messages: AgentMessage[];
  emit(event: SessionEvent): void;
  /** The model call to summarise with; undefined when there is no model or key. */
  summaryCall(signal: AbortSignal, source?: SummarySource): SummaryCall | undefined;
  /** Rebuilds the model's context from the file, in place. */
  reloadContext(): void;
}

/** A summary request made the way the session's own requests are (key, headers, HTTP options). */
export function summaryCallFor(
  model: Model,
  options: StreamOptions,
  stream: StreamFunction,
  signal: AbortSignal,
  retry?: SummaryRetry,
): SummaryCall | undefined {
  if (!options.apiKey) return undefined;
  return {
    model,
    stream,
    apiKey: options.apiKey,
    ...(options.headers ? { headers: options.headers } : {}),
    signal,
    ...(retry ? { retry } : {}),
    providerOptions: {
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    },
  };
}

export class CompactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompactionError";
  }
}

const OVERFLOW_GAVE_UP =
  "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

export class CompactionRunner {
  /** Set once an overflow was compacted and retried; cleared by a user message or a good answer. */
  overflowAttempted = false;
  private controller: AbortController | undefined;

  constructor(private readonly host: CompactionHost) {}

  get isCompacting(): boolean {
    return this.controller !== undefined;
  }

  /** Stops a summary in progress (the file is left unchanged). */
  abort(): void {
    this.controller?.abort();
  }

  /**
   * Index in the context of the first message written after the latest compaction (0 without
   * one). Messages before it describe a context that no longer exists. Decided by the order of
   * entries in the file, not by timestamps: a retry's answer can carry the very millisecond of
   * the compaction before it.
   */
  private firstFresh(): number {
    return this.host.store.planContext().freshFrom;
  }

  /**
   * After a run: a failed answer that reports an overflow is compacted once and then retried
   * ("retry"); an answer that stopped normally but reports more input than the window, or context
   * past the threshold, is compacted and nothing is retried ("compacted"); otherwise nothing
   * ("none"). A failed recovery is reported in `compaction_end` and ends the chain ("failed").
   */
  async afterRun(last: AssistantMessage | undefined): Promise<"retry" | "compacted" | "none" | "failed"> {
    const { model, compaction } = this.host;
    if (!last || !model || !compaction.enabled || last.stopReason === "aborted") return "none";
    if (this.host.messages.lastIndexOf(last) < this.firstFresh()) return "none";
    const sameModel = last.provider === model.provider && last.model === model.id;
    if (sameModel && isContextOverflow(last, model.contextWindow) && last.stopReason === "stop") {
      // The answer is complete and stays: the context it was given was too big to send again,
      // but there is no failed request to repeat. (An empty answer cut at the length limit is
      // a failed one: it is compacted and retried below.)
      return (await this.auto("threshold", false)) ? "compacted" : "none";
    }
    if (sameModel && isContextOverflow(last, model.contextWindow)) {
      if (this.overflowAttempted) {
        this.host.emit({ type: "compaction_start", reason: "overflow" });
        this.host.emit({ type: "compaction_end", reason: "overflow", aborted: false, willRetry: false, errorMessage: OVERFLOW_GAVE_UP });
        return "failed";
      }
      this.overflowAttempted = true;
      // The failed answer stays in the file; the model does not see it again.
      if (this.host.messages[this.host.messages.length - 1] === last) this.host.messages.pop();
      return (await this.auto("overflow", true)) ? "retry" : "failed";
    }
    const tokens =
      last.stopReason === "error" ? estimateContextTokens(this.host.messages).tokens : calculateContextTokens(last.usage);
    if (tokens > model.contextWindow - compaction.reserveTokens) {
      return (await this.auto("threshold", false)) ? "compacted" : "none";
    }
    return "none";
  }

  /** Before a model call: compacts when the context about to be sent would not fit. */
  async beforeRequest(): Promise<void> {
    const { model, compaction } = this.host;
    if (!model || !compaction.enabled) return;
    const messages = this.host.messages;
    const estimate = estimateContextTokens(messages);
    // Usage reported before the latest compaction describes a context that no longer exists:
    // estimate the whole context instead.
    const usageAt = estimate.lastUsageIndex;
    const stale = usageAt !== null && usageAt < this.firstFresh();
    const tokens = stale ? messages.reduce((sum, m) => sum + estimateTokens(m), 0) : estimate.tokens;
    if (tokens <= model.contextWindow - compaction.reserveTokens) return;
    await this.auto("threshold", false);
  }

  /** Runs an automatic compaction, reporting it; returns whether a compaction was written. */
  private async auto(reason: CompactionReason, willRetry: boolean): Promise<boolean> {
    this.host.emit({ type: "compaction_start", reason });
    try {
      const result = await this.run(reason, undefined);
      if (!result) {
        // An overflow that cannot be compacted away ends the run: say why.
        const why = reason === "overflow" ? { errorMessage: `Context overflow recovery failed: ${NOTHING_TO_COMPACT}` } : {};
        this.host.emit({ type: "compaction_end", reason, aborted: false, willRetry: false, ...why });
        return false;
      }
      this.host.emit({ type: "compaction_end", reason, result, aborted: false, willRetry });
      return true;
    } catch (error) {
      const aborted = isCompactionCancelled(error);
      const prefix = reason === "overflow" ? "Context overflow recovery failed" : "Auto-compaction failed";
      this.host.emit({
        type: "compaction_end",
        reason,
        aborted,
        willRetry: false,
        ...(aborted ? {} : { errorMessage: `${prefix}: ${(error as Error).message}` }),
      });
      return false;
    }
  }

  /** `/compact [instructions]`: the result, or a `CompactionError` with upstream's wording. */
  async manual(customInstructions?: string): Promise<CompactionResult> {
    this.host.emit({ type: "compaction_start", reason: "manual" });
    try {
      const result = await this.run("manual", customInstructions, true);
      if (!result) throw new CompactionError(NOTHING_TO_COMPACT);
      this.host.emit({ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false });
      return result;
    } catch (error) {
      const aborted = isCompactionCancelled(error);
      const message = (error as Error).message;
      this.host.emit({
        type: "compaction_end",
        reason: "manual",
        aborted,
        willRetry: false,
        ...(aborted ? {} : { errorMessage: `Compaction failed: ${message}` }),
      });
      throw error instanceof CompactionError ? error : new CompactionError(message);
    }
  }

  /**
   * Prepares, summarises and appends. Undefined when there is nothing to summarise (no model
   * call is made for that). `strict` turns "already compacted" into an error (manual use).
   */
  private async run(reason: CompactionReason, customInstructions: string | undefined, strict = false): Promise<CompactionResult | undefined> {
    const branch = this.host.store.getBranch();
    const preparation = prepareCompaction(branch, this.host.compaction);
    if (preparation === undefined) {
      if (strict) throw new CompactionError(ALREADY_COMPACTED);
      return undefined;
    }
    if (isNothingToCompact(preparation)) {
      if (strict) throw new CompactionError(preparation.message);
      return undefined;
    }
    const controller = new AbortController();
    this.controller = controller;
    try {
      const call = this.host.summaryCall(controller.signal, { source: "compaction", reason });
      if (!call) throw new CompactionError(this.host.model ? `No API key found for ${this.host.model.provider}.` : "No model selected.");
      const result = await compact(preparation, {
        ...call,
        ...(customInstructions ? { customInstructions } : {}),
        thinkingLevel: this.host.thinkingLevel,
      });
      // Only a complete summary reaches the file, as one entry.
      this.host.store.appendCompaction(result.summary, result.firstKeptEntryId, result.tokensBefore, result.details, false);
      this.host.reloadContext();
      const estimatedTokensAfter = this.host.messages.reduce((sum, m) => sum + estimateTokens(m), 0);
      return { summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, estimatedTokensAfter, details: result.details };
    } finally {
      this.controller = undefined;
    }
  }
}

export type { CompactionEntry };
