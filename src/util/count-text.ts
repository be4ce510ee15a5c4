/**
 * Counts as people read them: a whole number with its thousands separated by commas, as
 * `toLocaleString("en-US")` writes it. Written out here because the first `toLocaleString` of a
 * run builds ICU's number formatter (measured: 2.8–5 ms), which the first screen of a resumed
 * session would pay for one "1,234 earlier messages" line.
 */

/** `n` rounded to a whole number, with commas between groups of three digits ("-1,234,567"). */
export function formatCount(n: number): string {
  const whole = Math.round(n);
  const digits = String(Math.abs(whole));
  // Not finite, or so large that String() writes an exponent: the formatter knows best.
  if (!/^\d+$/.test(digits)) return whole.toLocaleString("en-US");
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return whole < 0 ? `-${grouped}` : grouped;
}
