/** What each check found, and the report `pig extension check` prints. */
export type CheckStatus = "pass" | "fail" | "skip";

export interface CheckResult {
  /** Dotted name, e.g. `tools.count_lines.cancel`. */
  name: string;
  status: CheckStatus;
  detail: string;
  /** The extension's stderr (its last lines) when the check failed or could not run: often the why. */
  stderr?: string;
}

const MARK: Record<CheckStatus, string> = { pass: "✓", fail: "✗", skip: "-" };

export function formatReport(target: string, results: readonly CheckResult[]): string {
  const width = Math.min(40, Math.max(...results.map((r) => r.name.length), 10));
  const lines = [`pig extension check: ${target}`];
  for (const r of results) {
    lines.push(`  ${MARK[r.status]} ${r.name.padEnd(width)}  ${r.detail}`);
    if (r.stderr) lines.push("      its stderr:", ...r.stderr.split("\n").map((line) => `      │ ${line}`));
  }
  lines.push(summary(results));
  return `${lines.join("\n")}\n`;
}

export function summary(results: readonly CheckResult[]): string {
  const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
  return `${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped`;
}
