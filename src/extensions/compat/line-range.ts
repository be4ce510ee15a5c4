/** Upstream's `formatReadLineRange`: a read call's offset and limit as `:start-end` (renderers show it after the path). */

/** A finite number, or a numeric string, as a number. */
function lineNumber(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** `""` without a range or with a malformed one; `:start` with no limit; `:start-end` otherwise. Absent values may be null (strict schemas). */
export function formatReadLineRange(offset: unknown, limit: unknown): string {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return end ? `:${start}-${end}` : `:${start}`;
}
