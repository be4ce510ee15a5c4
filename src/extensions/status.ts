/**
 * What `/extensions` and the RPC command `get_extensions` show of each extension: where it was
 * loaded from, the process holding it, what it listens to, how busy and how fast it is, and
 * what last went wrong. One row shape for both, so the two cannot drift apart.
 */

export interface ExtensionRow {
  path: string;
  pid?: number;
  generation: number;
  state: string;
  events: string[];
  calls: number;
  medianLatencyMs?: number;
  error?: string;
}

/** The host's status entries (`ExtensionHost.list()`), with absent values left out. */
export function extensionRows(
  list: readonly { id: string; pid: number | undefined; generation: number; state: string; events: readonly string[]; calls: number; medianLatencyMs: number | undefined; error?: string }[],
): ExtensionRow[] {
  return list.map((s) => ({
    path: s.id,
    ...(s.pid !== undefined ? { pid: s.pid } : {}),
    generation: s.generation,
    state: s.state,
    events: [...s.events],
    calls: s.calls,
    ...(s.medianLatencyMs !== undefined ? { medianLatencyMs: Math.round(s.medianLatencyMs * 100) / 100 } : {}),
    ...(s.error !== undefined ? { error: s.error } : {}),
  }));
}

/** A few lines per extension, for the terminal. */
export function formatExtensionRows(rows: readonly ExtensionRow[]): string[] {
  if (rows.length === 0) return ["No extensions loaded."];
  const lines: string[] = [];
  for (const row of rows) {
    const pid = row.pid !== undefined ? `pid ${row.pid}` : "no process";
    lines.push(`${row.path}`);
    lines.push(`  ${row.state} · ${pid} · generation ${row.generation}`);
    const latency = row.medianLatencyMs !== undefined ? `, median ${row.medianLatencyMs} ms` : "";
    lines.push(`  ${row.calls} ${row.calls === 1 ? "call" : "calls"}${latency}`);
    lines.push(`  events: ${row.events.length > 0 ? row.events.join(", ") : "none"}`);
    if (row.error) lines.push(`  last error: ${row.error}`);
  }
  return lines;
}
