/** The one dim line printed after each run: tokens, cache, cost, context use, model. */
import type { SessionStats } from "../../../agent/session-report.ts";
import type { Model } from "../../../ai/types.ts";
import type { Theme } from "../theme.ts";
import { terminalSafe } from "../../../util/terminal-safe.ts";

export function compactNumber(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** Where a virtual model's last request went: the physical model and the level it was asked at. */
export interface RoutedTo {
  provider: string;
  model: string;
  thinkingLevel?: string | undefined;
}

export function statusLine(stats: SessionStats, model: Model | undefined, thinking: string, theme: Theme, routed?: RoutedTo): string {
  const parts = [`↑${compactNumber(stats.tokens.input)} ↓${compactNumber(stats.tokens.output)}`];
  if (stats.tokens.cacheRead || stats.tokens.cacheWrite) parts.push(`cache ${compactNumber(stats.tokens.cacheRead)}r/${compactNumber(stats.tokens.cacheWrite)}w`);
  parts.push(`$${stats.cost.toFixed(stats.cost < 1 ? 4 : 2)}`);
  const usage = stats.contextUsage;
  if (usage && usage.percent !== null) parts.push(`${usage.percent.toFixed(1)}% of ${compactNumber(usage.contextWindow)}`);
  // Provider and model names come from models.json and extensions.
  if (model) {
    const selected = `${terminalSafe(`${model.provider}/${model.id}`)}${model.reasoning ? ` · ${thinking}` : ""}`;
    // A virtual model: the selection, then where it sent the last request (upstream's footer).
    const to = routed ? ` → ${terminalSafe(`${routed.provider}/${routed.model}`)}${routed.thinkingLevel ? ` · ${terminalSafe(routed.thinkingLevel)}` : ""}` : "";
    parts.push(`${selected}${to}`);
  }
  return theme.fg("dim", parts.join("  "));
}
