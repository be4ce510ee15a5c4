/**
 * When and how a session compacts: after a run whose answer used more than the window allows
 * (threshold), before a request that would not fit, after the provider reports an overflow
 * (compact once, then retry without a new message), and on request (`/compact`). Summaries
 * are written as one compaction entry only once complete; the model's context is then rebuilt
 * from the file.
 */
import { isContextOverflow } from "../ai/errors.ts";
import type { AssistantMessage, Model, StreamFunction, StreamOptions } from "../ai/types.ts";
// Only the token estimates are needed before a turn; the rest (preparation, the summary request,
// its prompts) is loaded when a compaction actually runs, not by every run.
import { calculateContextTokens, estimateContextTokens, estimateTokens, estimateWithoutUsage } from "../compaction/tokens.ts";
import type { CompactionPreparation, SummaryCall, SummaryRetry } from "../compaction/index.ts";
import type { RecoveryPlan } from "../compaction/recovery.ts";
import type { CompactionEntry, SessionEntry, ThinkingLevel, Usage } from "../session/format.ts";
import type { SessionStore } from "../session/store.ts";
import type { CompactionSettings } from "../resources/settings-effective.ts";
import type { CompactionReason, CompactionReport, SessionEvent, SummarySource } from "./events.ts";
import type { Activity } from "./activity.ts";
import type { Conversation } from "./conversation.ts";
import type { AgentHooks } from "./hooks.ts";

export type { CompactionSettings };

/** The compaction modules a compaction runs with, loaded by the first one. */
type CompactionModules = typeof import("../compaction/index.ts") & typeof import("../compaction/recovery.ts");

async function loadCompaction(): Promise<CompactionModules> {
  const [compaction, recovery] = await Promise.all([import("../compaction/index.ts"), import("../compaction/recovery.ts")]);
  return { ...compaction, ...recovery };
}

/** What the runner needs from the session it works for. */
export interface CompactionHost {
  readonly store: SessionStore;
  readonly model: Model | undefined;
  readonly thinkingLevel: ThinkingLevel;
  readonly compaction: CompactionSettings;
  readonly conversation: Conversation;
  readonly activity: Activity;
  readonly hooks: AgentHooks;
  emit(event: SessionEvent): void;
  /** Tells front ends the session changed (the compaction is in the file). */
  changed(reason: "compaction"): void;
  /** The model call to summarise with; undefined when there is no model or key. */
  summaryCall(signal: AbortSignal, source?: SummarySource): Promise<SummaryCall | undefined>;
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

/** What a compaction reports (the `compact` response, `compaction_end`'s result), in Pi's key order. */
export interface CompactionOutcome extends CompactionReport {
  /** The first kept entry as stored: the compaction's own id when it keeps nothing. */
  firstKeptEntryId: string;
  /** The estimated size of the compacted context. */
  estimatedTokensAfter: number;
  usage?: Usage;
}

const OVERFLOW_GAVE_UP =
  "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

/** A compaction that can go ahead: its preparation, and for an overflow recovery the failed attempt. */
interface Planned {
  preparation: CompactionPreparation;
  /** The branch the preparation was made from: handed to the hook as it is, not read again. */
  branch: SessionEntry[];
  recovery?: RecoveryPlan | undefined;
}

export class CompactionRunner {
  /** Set once an overflow was compacted and retried; cleared by a user message or a good answer. */
  overflowAttempted = false;
  /**
   * Whether the latest compaction's content came from a `session_before_compact` handler (read
   * with its `compaction_end`: a failure then is the extension's).
   */
  fromExtension = false;

  constructor(private readonly host: CompactionHost) {}

  /**
   * Index in the context of the first message written after the latest compaction (0 without
   * one). Messages before it describe a context that no longer exists. Decided by the order of
   * entries in the file, not by timestamps: a retry's answer can carry the very millisecond of
   * the compaction before it.
   */
  private firstFresh(): number {
    return this.host.conversation.freshFrom;
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
    const fresh = this.firstFresh();
    if (this.host.conversation.messages.lastIndexOf(last) < fresh) return "none";
    const sameModel = last.provider === model.provider && last.model === model.id;
    if (sameModel && isContextOverflow(last, model.contextWindow) && last.stopReason === "stop") {
      // The answer is complete and stays: the context it was given was too big to send again,
      // but there is no failed request to repeat.
      return (await this.auto("overflow", false)) ? "compacted" : "none";
    }
    if (sameModel && isContextOverflow(last, model.contextWindow)) {
      if (this.overflowAttempted) {
        // Nothing is started: the one attempt was made (Pi reports this with compaction_end alone).
        this.fromExtension = false;
        this.host.emit({ type: "compaction_end", reason: "overflow", aborted: false, willRetry: false, errorMessage: OVERFLOW_GAVE_UP });
        return "failed";
      }
      this.overflowAttempted = true;
      // The failed answer stays in the file, beside the compaction; the model does not see it again.
      this.host.conversation.dropLast(last);
      return (await this.auto("overflow", true)) ? "retry" : "failed";
    }
    // An unknown window (a virtual model before its first answer) is never past the threshold.
    if (model.contextWindow > 0 && this.thresholdTokens(last, fresh) > model.contextWindow - compaction.reserveTokens) {
      return (await this.auto("threshold", false)) ? "compacted" : "none";
    }
    return "none";
  }

  /**
   * The context size after `last`: its own usage when it reported one; after a failed answer, or
   * one without usage, the estimate of the context, which is 0 (no compaction) when the usage it
   * would rest on was reported before the latest compaction.
   */
  private thresholdTokens(last: AssistantMessage, fresh: number): number {
    const direct = calculateContextTokens(last.usage);
    if (last.stopReason !== "error" && direct > 0) return direct;
    const estimate = estimateContextTokens(this.host.conversation.messages);
    if (estimate.lastUsageIndex !== null && estimate.lastUsageIndex < fresh) return 0;
    return estimate.tokens;
  }

  /** Before a model call: compacts when the context about to be sent would not fit. */
  async beforeRequest(): Promise<void> {
    const { model, compaction } = this.host;
    if (!model || !compaction.enabled || model.contextWindow <= 0) return;
    const messages = this.host.conversation.messages;
    const estimate = estimateContextTokens(messages);
    // Usage reported before the latest compaction describes a context that no longer exists:
    // estimate the whole context instead (the prompt counted once, as a request sends it).
    const usageAt = estimate.lastUsageIndex;
    const stale = usageAt !== null && usageAt < this.firstFresh();
    const tokens = usageAt === null || stale ? estimateWithoutUsage(messages) : estimate.tokens;
    if (tokens <= model.contextWindow - compaction.reserveTokens) return;
    await this.auto("threshold", false);
  }

  /**
   * Runs an automatic compaction, reporting it; returns whether a compaction was written. With
   * nothing to compact nothing is reported, except for an overflow, whose run ends: it says why.
   */
  private async auto(reason: CompactionReason, willRetry: boolean): Promise<boolean> {
    const ops = await loadCompaction();
    const planned = this.plan(ops, reason === "overflow" && willRetry);
    if (!planned) {
      if (reason === "overflow" && willRetry) {
        const errorMessage = `Context overflow recovery failed: ${ops.NOTHING_TO_COMPACT}`;
        this.fromExtension = false;
        this.host.emit({ type: "compaction_end", reason, aborted: false, willRetry: false, errorMessage });
      }
      return false;
    }
    this.host.emit({ type: "compaction_start", reason });
    this.fromExtension = false;
    try {
      const result = await this.run(ops, planned, reason, undefined, willRetry);
      this.host.emit({ type: "compaction_end", reason, result, aborted: false, willRetry });
      return true;
    } catch (error) {
      const aborted = ops.isCompactionCancelled(error);
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
  async manual(customInstructions?: string): Promise<CompactionOutcome> {
    this.host.emit({ type: "compaction_start", reason: "manual" });
    this.fromExtension = false;
    const ops = await loadCompaction();
    try {
      const planned = this.plan(ops, false, true);
      if (!planned) throw new CompactionError(ops.NOTHING_TO_COMPACT);
      const result = await this.run(ops, planned, "manual", customInstructions, false);
      this.host.emit({ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false });
      return result;
    } catch (error) {
      const aborted = ops.isCompactionCancelled(error);
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
   * What the branch gives to summarise, or undefined when there is nothing (no model call is
   * made for that). `strict` turns "already compacted" and "nothing to compact" into errors
   * (manual use). An overflow recovery leaves the failed attempt out.
   */
  private plan(ops: CompactionModules, recovering: boolean, strict = false): Planned | undefined {
    const branch = this.host.store.getBranch();
    const recovery = recovering ? ops.recoveryPlan(branch) : undefined;
    const preparation = ops.prepareCompaction(branch, this.host.compaction, recovery ? { omitted: recovery.omitted } : {});
    if (preparation === undefined) {
      if (strict) throw new CompactionError(ops.ALREADY_COMPACTED);
      return undefined;
    }
    if (ops.isNothingToCompact(preparation)) {
      if (strict) throw new CompactionError(preparation.message);
      return undefined;
    }
    return { preparation, recovery, branch };
  }

  /**
   * Summarises and appends; the context is then rebuilt from the file. The compaction hook may
   * cancel it, or hand over a compaction of its own, which is stored as made by a hook.
   */
  private async run(
    ops: CompactionModules,
    { preparation, recovery, branch }: Planned,
    reason: CompactionReason,
    customInstructions: string | undefined,
    willRetry: boolean,
  ): Promise<CompactionOutcome> {
    return this.host.activity.during("compaction", async (signal) => {
      const store = this.host.store;
      const hooked = await this.host.hooks.sessionBeforeCompact({
        preparation,
        branchEntries: branch,
        ...(customInstructions ? { customInstructions } : {}),
        reason,
        willRetry,
        signal,
      });
      if (hooked?.cancel || signal.aborted) throw new ops.CompactionCancelledError();
      const supplied = hooked?.compaction;
      this.fromExtension = supplied !== undefined;
      const made = supplied ? undefined : await this.summarise(ops, preparation, reason, customInstructions, signal);
      const result = made ?? supplied!;
      const usage = made?.usage;
      // A hook's compaction keeps what the hook says it keeps (null: nothing).
      const kept = made ? ops.keptFrom(made.firstKeptEntryId, recovery) : supplied!.firstKeptEntryId;
      // Only a complete summary reaches the file, as one entry.
      const id = store.appendCompaction(
        result.summary,
        kept,
        result.tokensBefore,
        result.details,
        supplied !== undefined,
        usage,
        recovery ? { parentId: recovery.parentId } : {},
      );
      this.host.conversation.reload();
      this.host.changed("compaction");
      const stored = store.getEntry(id) as CompactionEntry | undefined;
      const after = store.buildContext().messages.reduce((sum, message) => sum + estimateTokens(message), 0);
      return {
        summary: result.summary,
        firstKeptEntryId: stored?.firstKeptEntryId ?? result.firstKeptEntryId ?? id,
        tokensBefore: result.tokensBefore,
        estimatedTokensAfter: after,
        ...(usage ? { usage } : {}),
        details: result.details,
      };
    });
  }

  private async summarise(
    ops: CompactionModules,
    preparation: CompactionPreparation, reason: CompactionReason, customInstructions: string | undefined, signal: AbortSignal) {
    const call = await this.host.summaryCall(signal, { source: "compaction", reason });
    if (!call) throw new CompactionError(this.host.model ? `No API key found for ${this.host.model.provider}.` : "No model selected.");
    return ops.compact(preparation, {
      ...call,
      ...(customInstructions ? { customInstructions } : {}),
      thinkingLevel: this.host.thinkingLevel,
    });
  }
}

export type { CompactionEntry };
