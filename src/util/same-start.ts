/**
 * Whether `list` begins with the very objects of `start` (identity, not equality): a walk kept
 * from an earlier call over `start` may go on over the rest of `list`.
 */
export function beginsWithSame(list: readonly unknown[], start: readonly unknown[]): boolean {
  if (start.length > list.length) return false;
  for (let i = 0; i < start.length; i++) if (list[i] !== start[i]) return false;
  return true;
}

/** Whether `list` holds the very objects of `other`, in the same order, and nothing more. */
export function sameObjects(list: readonly unknown[], other: readonly unknown[]): boolean {
  return list.length === other.length && beginsWithSame(list, other);
}
