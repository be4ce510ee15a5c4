/**
 * Short forms of session ids. Session ids are UUIDv7: their first 12 hex digits are a
 * millisecond timestamp, so sessions started within about a minute share their first 8 digits.
 * A list therefore prints, for each id, the shortest prefix no other known id starts with.
 */

/** The minimum length of a printed prefix, however few sessions there are. */
export const MIN_PREFIX = 8;

function commonLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a[i] === b[i]) i++;
  return i;
}

/**
 * For each id, the shortest prefix (at least `min` characters) that no other id in `ids` starts
 * with; an id that is itself the start of another maps to the whole id. A repeated id (copies
 * of one session) counts once: `--session` takes the copy in the project's own directory.
 */
export function uniquePrefixes(ids: Iterable<string>, min = MIN_PREFIX): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const out = new Map<string, string>();
  sorted.forEach((id, i) => {
    // In sorted order the longest common prefix of an id is with one of its neighbours.
    const before = i > 0 ? commonLength(id, sorted[i - 1]!) : 0;
    const after = i + 1 < sorted.length ? commonLength(id, sorted[i + 1]!) : 0;
    const length = Math.min(id.length, Math.max(min, before + 1, after + 1));
    out.set(id, id.slice(0, length));
  });
  return out;
}
