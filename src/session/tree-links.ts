/**
 * How a file's entries link into a tree when the links are damaged: a `parentId` no entry has
 * (dangling), entries that are each other's parents (a cycle), and ids used twice (the later
 * line wins the id, as upstream). Every entry ends up in the tree exactly once: a dangling
 * entry becomes a root, and each cycle is cut above its earliest line, which becomes a root.
 */
import type { EntryRecord } from "./records.ts";

export interface TreeLinks {
  /** Each record's parent in the tree; absent for roots. */
  readonly parentOf: ReadonlyMap<EntryRecord, EntryRecord>;
  /** Roots in file order, cut points included. */
  readonly roots: readonly EntryRecord[];
  /** Records whose `parentId` names no entry. */
  readonly dangling: readonly EntryRecord[];
  /** Each cycle: its members in parent order starting at the cut, and the record it was cut at. */
  readonly cycles: readonly { readonly cut: EntryRecord; readonly members: readonly EntryRecord[] }[];
}

/** Resolves parents with `byId` (the id's current owner) over `records` in file order. */
export function resolveLinks(records: readonly EntryRecord[], byId: (id: string) => EntryRecord | undefined): TreeLinks {
  const parentOf = new Map<EntryRecord, EntryRecord>();
  const children = new Map<EntryRecord, EntryRecord[]>();
  const order = new Map<EntryRecord, number>();
  const roots: EntryRecord[] = [];
  const dangling: EntryRecord[] = [];
  const cycles: { cut: EntryRecord; members: EntryRecord[] }[] = [];
  records.forEach((record, index) => {
    order.set(record, index);
    const parent = record.parentId ? byId(record.parentId) : undefined;
    if (record.parentId && !parent) dangling.push(record);
    if (!parent) {
      roots.push(record);
      return;
    }
    parentOf.set(record, parent);
    const list = children.get(parent);
    if (list) list.push(record);
    else children.set(parent, [record]);
  });

  const reached = new Set<EntryRecord>();
  const reach = (from: EntryRecord): void => {
    const stack = [from];
    while (stack.length > 0) {
      const record = stack.pop()!;
      if (reached.has(record)) continue;
      reached.add(record);
      for (const child of children.get(record) ?? []) stack.push(child);
    }
  };
  for (const root of roots) reach(root);

  // Whatever no root reaches hangs off a cycle (walking up from it never ends at a root).
  for (const record of records) {
    if (reached.has(record)) continue;
    const walk: EntryRecord[] = [];
    const at = new Map<EntryRecord, number>();
    let current: EntryRecord | undefined = record;
    while (current && !at.has(current)) {
      at.set(current, walk.length);
      walk.push(current);
      current = parentOf.get(current);
    }
    const loop = walk.slice(at.get(current!)!);
    const cut = loop.reduce((a, b) => (order.get(a)! <= order.get(b)! ? a : b));
    const from = loop.indexOf(cut);
    cycles.push({ cut, members: [...loop.slice(from), ...loop.slice(0, from)] });
    parentOf.delete(cut);
    const siblings = children.get(parentOfCut(loop, from))!;
    siblings.splice(siblings.indexOf(cut), 1);
    roots.push(cut);
    reach(cut);
  }
  roots.sort((a, b) => order.get(a)! - order.get(b)!);
  return { parentOf, roots, dangling, cycles };
}

/** What is damaged in how the entries link: `resolveLinks`'s `dangling` and `cycles`. */
export type LinkDamage = Pick<TreeLinks, "dangling" | "cycles">;

/**
 * The damaged links alone, as `resolveLinks` finds them. Where every parent is on an earlier
 * line than its child (as pig and Pi write files) there is no cycle, since each step up goes to
 * an earlier line: one pass then finds the dangling parents, without the maps of the whole tree
 * (a third of opening a 20,000-entry session took them). Anything else is resolved in full.
 * `uniqueIds`: the caller knows no id is used twice (the lookups of parents on the line before are skipped).
 */
export function linkDamage(records: readonly EntryRecord[], byId: (id: string) => EntryRecord | undefined, uniqueIds = false): LinkDamage {
  const dangling: EntryRecord[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (!record.parentId) continue;
    // `uniqueIds`: no two records share an id. The record before is then its id's owner, and the
    // parent when it has that id: found, and (checked) on an earlier line. A linear session costs
    // a compare a line instead of a lookup.
    if (uniqueIds && i > 0) {
      const before = records[i - 1]!;
      if (before.id === record.parentId && before.line < record.line) continue;
    }
    const parent = byId(record.parentId);
    if (!parent) dangling.push(record);
    else if (!(parent.line < record.line)) return resolveLinks(records, byId);
  }
  return { dangling, cycles: [] };
}

/** In a loop listed child → parent, the parent of the member at `index`. */
function parentOfCut(loop: readonly EntryRecord[], index: number): EntryRecord {
  return loop[(index + 1) % loop.length]!;
}

export interface LinkProblem {
  readonly line: number;
  readonly kind: "duplicate-id" | "dangling-parent" | "parent-cycle";
  readonly message: string;
}

/** One line per damaged link and per id used again (`reused`: the later lines), for the load diagnostics (`file:line: …`). */
export function linkProblems(links: LinkDamage, reused: readonly EntryRecord[] = []): LinkProblem[] {
  const out: LinkProblem[] = reused.map((record) => ({
    line: record.line,
    kind: "duplicate-id",
    message: `entry id ${record.id} is used by an earlier line too; the later one wins`,
  }));
  for (const record of links.dangling) {
    out.push({
      line: record.line,
      kind: "dangling-parent",
      message: `entry ${record.id} names parent ${record.parentId}, which no entry has; shown as a root`,
    });
  }
  for (const { cut, members } of links.cycles) {
    const chain = members.map((m) => `${m.id} (line ${m.line})`).join(" → ");
    const what = members.length === 1 ? `entry ${cut.id} names itself as its parent` : `entries form a parent cycle: ${chain} → ${cut.id}`;
    out.push({ line: cut.line, kind: "parent-cycle", message: `${what}; the tree is cut above ${cut.id}, shown as a root` });
  }
  return out.sort((a, b) => a.line - b.line);
}
