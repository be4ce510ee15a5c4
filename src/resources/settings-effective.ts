/**
 * The settings pig acts on: every setting's default (upstream's values) and the views the agent
 * reads (retry, compaction, branch summaries, the effective whole), filled in from a merged
 * settings object. Reading and merging the files is settings.ts.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { ThinkingLevel } from "../session/format.ts";
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from "../tools/output-bound.ts";
import type { Settings } from "./settings.ts";

type Json = Record<string, unknown>;

/** The value of every setting pig reads when no file sets it (upstream 0.73.1 defaults). */
export const settingsDefaults = {
  defaultThinkingLevel: "medium",
  transport: "auto",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  branchSummary: { reserveTokens: 16384, skipPrompt: false },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, provider: { maxRetryDelayMs: 60_000, idleTimeoutMs: 300_000 } },
  hideThinkingBlock: false,
  quietStartup: false,
  collapseChangelog: false,
  enableInstallTelemetry: true,
  enableSkillCommands: true,
  terminal: { showImages: true, imageWidthCells: 60, clearOnShrink: false, showTerminalProgress: false },
  images: { autoResize: true, blockImages: false },
  toolOutput: DEFAULT_OUTPUT_LIMITS,
  doubleEscapeAction: "tree",
  treeFilterMode: "default",
  editorPaddingX: 0,
  autocompleteMaxVisible: 5,
  replayScreens: 3,
  showHardwareCursor: false,
  markdown: { codeBlockIndent: "  " },
  warnings: { anthropicExtraUsage: true },
} as const;

type Mode = (typeof settingsDefaults)["steeringMode"] | "all";
type Env = Record<string, string | undefined>;

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  /** `idleTimeoutMs` 0 or absent: no limit on silence (`retrySettings` fills in the default). */
  provider: { timeoutMs?: number; maxRetries?: number; maxRetryDelayMs: number; idleTimeoutMs?: number };
}

export function retrySettings(settings: Settings): RetrySettings {
  const retry = settings.retry ?? {};
  const d = settingsDefaults.retry;
  return {
    enabled: retry.enabled ?? d.enabled,
    maxRetries: retry.maxRetries ?? d.maxRetries,
    baseDelayMs: retry.baseDelayMs ?? d.baseDelayMs,
    provider: {
      ...(retry.provider?.timeoutMs !== undefined ? { timeoutMs: retry.provider.timeoutMs } : {}),
      ...(retry.provider?.maxRetries !== undefined ? { maxRetries: retry.provider.maxRetries } : {}),
      maxRetryDelayMs: retry.provider?.maxRetryDelayMs ?? d.provider.maxRetryDelayMs,
      idleTimeoutMs: retry.provider?.idleTimeoutMs ?? d.provider.idleTimeoutMs,
    },
  };
}

/** The bound on results of tools that do not bound their own: Pi's limits of the built-ins unless set. */
export function toolOutputLimits(settings: Settings): OutputLimits {
  const d = settingsDefaults.toolOutput;
  return { maxLines: settings.toolOutput?.maxLines ?? d.maxLines, maxBytes: settings.toolOutput?.maxBytes ?? d.maxBytes };
}

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

export function compactionSettings(settings: Settings): CompactionSettings {
  return { ...settingsDefaults.compaction, ...defined(settings.compaction) } as CompactionSettings;
}

export function branchSummarySettings(settings: Settings): { reserveTokens: number; skipPrompt: boolean } {
  return { ...settingsDefaults.branchSummary, ...defined(settings.branchSummary) } as {
    reserveTokens: number;
    skipPrompt: boolean;
  };
}

function defined(value: Json | undefined): Json {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined));
}

function clamp(value: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.max(min, Math.min(max, Math.floor(value)));
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** Every setting pig reads, with defaults filled in and ranges clamped. */
export interface EffectiveSettings {
  defaultProvider?: string;
  defaultModel?: string;
  /** The level used when neither the session, the model pattern nor a flag gives one. */
  defaultThinkingLevel: ThinkingLevel;
  transport: "sse" | "websocket" | "websocket-cached" | "auto";
  steeringMode: Mode;
  followUpMode: Mode;
  theme?: string;
  compaction: CompactionSettings;
  branchSummary: { reserveTokens: number; skipPrompt: boolean };
  retry: RetrySettings;
  hideThinkingBlock: boolean;
  shellPath?: string;
  shellCommandPrefix?: string;
  quietStartup: boolean;
  npmCommand?: string[];
  /** Package installs pass --ignore-scripts (pig only). */
  npmIgnoreScripts: boolean;
  collapseChangelog: boolean;
  lastChangelogVersion?: string;
  enableInstallTelemetry: boolean;
  enableSkillCommands: boolean;
  terminal: { showImages: boolean; imageWidthCells: number; clearOnShrink: boolean; showTerminalProgress: boolean };
  images: { autoResize: boolean; blockImages: boolean };
  toolOutput: OutputLimits;
  enabledModels?: string[];
  doubleEscapeAction: "tree" | "fork" | "none";
  treeFilterMode: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
  thinkingBudgets?: { minimal?: number; low?: number; medium?: number; high?: number };
  editorPaddingX: number;
  autocompleteMaxVisible: number;
  replayScreens: number;
  showHardwareCursor: boolean;
  codeBlockIndent: string;
  warnings: { anthropicExtraUsage: boolean };
  /** `~` expanded. */
  sessionDir?: string;
}

/**
 * Fills defaults. `PI_CLEAR_ON_SHRINK=1` and `PI_HARDWARE_CURSOR=1` keep upstream's hard-coded
 * names and apply only when the setting is absent.
 */
export function effectiveSettings(s: Settings, env: Env = process.env, home: string = homedir()): EffectiveSettings {
  const d = settingsDefaults;
  const t = s.terminal ?? {};
  return {
    defaultProvider: s.defaultProvider,
    defaultModel: s.defaultModel,
    defaultThinkingLevel: s.defaultThinkingLevel ?? d.defaultThinkingLevel,
    transport: s.transport ?? d.transport,
    steeringMode: s.steeringMode ?? d.steeringMode,
    followUpMode: s.followUpMode ?? d.followUpMode,
    theme: s.theme,
    compaction: compactionSettings(s),
    branchSummary: branchSummarySettings(s),
    retry: retrySettings(s),
    hideThinkingBlock: s.hideThinkingBlock ?? d.hideThinkingBlock,
    shellPath: s.shellPath,
    shellCommandPrefix: s.shellCommandPrefix,
    quietStartup: s.quietStartup ?? d.quietStartup,
    npmCommand: s.npmCommand ? [...s.npmCommand] : undefined,
    npmIgnoreScripts: s.npmIgnoreScripts === true,
    collapseChangelog: s.collapseChangelog ?? d.collapseChangelog,
    lastChangelogVersion: s.lastChangelogVersion,
    enableInstallTelemetry: s.enableInstallTelemetry ?? d.enableInstallTelemetry,
    enableSkillCommands: s.enableSkillCommands ?? d.enableSkillCommands,
    terminal: {
      showImages: t.showImages ?? d.terminal.showImages,
      imageWidthCells: clamp(t.imageWidthCells, 1, Number.MAX_SAFE_INTEGER, d.terminal.imageWidthCells),
      clearOnShrink: t.clearOnShrink ?? env.PI_CLEAR_ON_SHRINK === "1",
      showTerminalProgress: t.showTerminalProgress ?? d.terminal.showTerminalProgress,
    },
    images: {
      autoResize: s.images?.autoResize ?? d.images.autoResize,
      blockImages: s.images?.blockImages ?? d.images.blockImages,
    },
    toolOutput: toolOutputLimits(s),
    enabledModels: s.enabledModels ? [...s.enabledModels] : undefined,
    doubleEscapeAction: s.doubleEscapeAction ?? d.doubleEscapeAction,
    treeFilterMode: s.treeFilterMode ?? d.treeFilterMode,
    thinkingBudgets: s.thinkingBudgets,
    editorPaddingX: clamp(s.editorPaddingX, 0, 3, d.editorPaddingX),
    autocompleteMaxVisible: clamp(s.autocompleteMaxVisible, 3, 20, d.autocompleteMaxVisible),
    replayScreens: clamp(s.replayScreens, 0, 100, d.replayScreens),
    showHardwareCursor: s.showHardwareCursor ?? env.PI_HARDWARE_CURSOR === "1",
    codeBlockIndent: s.markdown?.codeBlockIndent ?? d.markdown.codeBlockIndent,
    warnings: { anthropicExtraUsage: s.warnings?.anthropicExtraUsage ?? d.warnings.anthropicExtraUsage },
    sessionDir: s.sessionDir ? expandHome(s.sessionDir, home) : undefined,
  };
}
