/** Call counts and latencies per extension, for `/extensions`. */

const WINDOW = 101;

export class CallStats {
  calls = 0;
  private readonly recent: number[] = [];

  record(ms: number): void {
    this.calls += 1;
    this.recent.push(ms);
    if (this.recent.length > WINDOW) this.recent.shift();
  }

  /** Median of the most recent calls; undefined before the first. */
  medianMs(): number | undefined {
    if (this.recent.length === 0) return undefined;
    const sorted = [...this.recent].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
}
