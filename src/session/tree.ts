/**
 * The tree of a session's entries: lookup by id, parent walks, children, labels and the name.
 * Built from records in file order and kept up to date as entries are appended.
 */
import type { LabelEntry, SessionInfoEntry } from "./format.ts";
import type { EntryRecord } from "./records.ts";
import { linkDamage, linkProblems, resolveLinks, type LinkProblem, type TreeLinks } from "./tree-links.ts";

export interface LabelInfo {
  readonly label: string;
  /** Timestamp of the label entry that set it. */
  readonly timestamp: string;
}

export interface TreeNode {
  readonly record: EntryRecord;
  readonly children: TreeNode[];
  readonly label?: string;
  readonly labelTimestamp?: string;
}

export class SessionTree {
  readonly records: EntryRecord[];
  private readonly byId = new Map<string, EntryRecord>();
  private readonly labelMap = new Map<string, LabelInfo>();
  private name: string | undefined;

  /** Records a parent cycle of the loaded file was cut at: roots, for the tree and for every path alike. */
  private readonly cuts = new Set<EntryRecord>();
  /** The damaged links of the records the tree was made from (ids used twice, parents no entry has, parent cycles). */
  readonly linkProblems: readonly LinkProblem[];
  /**
   * The path `pathTo` gave last, and its ids once a child of its end was asked for: asked again
   * (every turn asks for the leaf's path, several times) or for a child of its end (an entry just
   * appended), it is not walked again. The ids are gathered only then: a run that only reads the
   * session (opening it for its state) never needs them.
   */
  private lastPath: { id: string; path: EntryRecord[]; ids?: Set<string> } | undefined;
  private changes = 0;
  /**
   * No two records have the same id: each record is then its id's owner, and a parent on the
   * line before a child is found by one compare instead of a lookup (a walk up a session
   * written turn after turn). Once false it stays false.
   */
  private uniqueIds = true;
  /** How many records are `custom` entries (a session opened for its state need not walk 20,000 entries to find none). */
  private customEntries = 0;
  constructor(records: Iterable<EntryRecord> = []) {
    // The loaded records are copied at once rather than pushed one by one (a 20,000-entry
    // session is indexed here as it opens, before the JIT has compiled any of it).
    this.records = [...records];
    const reused: EntryRecord[] = [];
    for (const record of this.records) if (this.index(record)) reused.push(record);
    this.changes = this.records.length;
    const damage = linkDamage(this.records, (id) => this.byId.get(id), this.uniqueIds);
    // Entries appended later have a fresh id and an existing parent: they never close a cycle.
    for (const { cut } of damage.cycles) this.cuts.add(cut);
    this.linkProblems = linkProblems(damage, reused);
  }

  /** Counts every change to the records (added, taken back, replaced): what was derived from them at one count holds until the next. */
  get version(): number {
    return this.changes;
  }

  /** Adds a record; true when its id was known already (one lookup of the id tells). */
  add(record: EntryRecord): boolean {
    this.changes++;
    const reused = this.index(record);
    // A second entry with a known id takes that id over: paths through it change.
    if (reused) this.lastPath = undefined;
    this.records.push(record);
    return reused;
  }

  /** Makes `record` its id's owner and notes what it sets; true when the id was known already. */
  private index(record: EntryRecord): boolean {
    const known = this.byId.size;
    if (record.type === "custom") this.customEntries++;
    this.byId.set(record.id, record);
    this.noteDerived(record);
    const reused = this.byId.size === known;
    if (reused) this.uniqueIds = false;
    return reused;
  }

  /** Labels and the session name, as the entries set them. */
  private noteDerived(record: EntryRecord): void {
    if (record.invalid) return;
    if (record.type === "label" && record.value) {
      const entry = record.value as LabelEntry;
      if (entry.label) this.labelMap.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
      else this.labelMap.delete(entry.targetId);
    } else if (record.type === "session_info" && record.value) {
      // The latest entry wins, and an empty name clears it (upstream 0.73.1).
      const name = (record.value as SessionInfoEntry).name?.trim();
      this.name = name ? name : undefined;
    }
  }

  /** Takes back the record added last (a write of it failed); what it set (a label, the name) is undone. */
  removeLast(record: EntryRecord): void {
    if (this.records.at(-1) !== record) return;
    this.changes++;
    this.lastPath = undefined;
    this.records.pop();
    if (record.type === "custom") this.customEntries--;
    if (this.byId.get(record.id) === record) {
      const earlier = this.records.findLast((r) => r.id === record.id);
      if (earlier) this.byId.set(record.id, earlier);
      else this.byId.delete(record.id);
    }
    if (record.type === "label" || record.type === "session_info") {
      this.labelMap.clear();
      this.name = undefined;
      for (const r of this.records) this.noteDerived(r);
    }
  }

  /** Swaps a record for an updated copy of itself (same entry, e.g. now on disk); false when it is not here. */
  replace(old: EntryRecord, updated: EntryRecord): boolean {
    const index = this.records.lastIndexOf(old);
    if (index < 0) return false;
    this.changes++;
    this.records[index] = updated;
    this.customEntries += (updated.type === "custom" ? 1 : 0) - (old.type === "custom" ? 1 : 0);
    if (updated.id !== old.id) this.uniqueIds = false;
    if (this.byId.get(old.id) === old) this.byId.set(old.id, updated);
    if (this.cuts.delete(old)) this.cuts.add(updated);
    const known = this.lastPath?.path;
    if (known) {
      // Replaced records are usually the last ones written: look from the end.
      const at = known.lastIndexOf(old);
      if (at >= 0) known[at] = updated;
    }
    return true;
  }

  get(id: string): EntryRecord | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get last(): EntryRecord | undefined {
    return this.records[this.records.length - 1];
  }

  get sessionName(): string | undefined {
    return this.name;
  }

  /** Whether any record, on any branch, is a `custom` entry. */
  get holdsCustomEntries(): boolean {
    return this.customEntries > 0;
  }

  labelOf(id: string): LabelInfo | undefined {
    return this.labelMap.get(id);
  }

  get labels(): ReadonlyMap<string, LabelInfo> {
    return this.labelMap;
  }

  /** Entries from the root down to `id` (inclusive). A parent loop ends the walk. */
  pathTo(id: string | null | undefined): EntryRecord[] {
    if (!id) return [];
    const known = this.lastPath;
    if (known?.id === id) return known.path.slice();
    const record = this.byId.get(id);
    if (known && record && record.parentId === known.id && !this.cuts.has(record)) {
      const ids = known.ids ?? new Set(known.path.map((r) => r.id));
      if (!ids.has(record.id)) {
        known.path.push(record);
        ids.add(record.id);
        this.lastPath = { id, path: known.path, ids };
        return known.path.slice();
      }
    }
    const path = this.walkTo(id);
    this.lastPath = { id, path };
    return path.slice();
  }

  /**
   * Every record a walk meets is its id's current owner, so without a parent cycle it meets each
   * at most once: a walk longer than the tree has records has met a cycle, and is walked again
   * watching for it (watching every step costs a set of all the ids on a long path).
   */
  private walkTo(id: string): EntryRecord[] {
    const path: EntryRecord[] = [];
    const cuts = this.cuts.size > 0;
    const records = this.records;
    let current = this.byId.get(id);
    // Where `current` is in the records, while that is known: its parent is looked for on the
    // line before first (see uniqueIds), then by its id.
    let at = current && this.uniqueIds ? records.lastIndexOf(current) : -1;
    while (current) {
      path.push(current);
      // Where the tree cuts a cycle, the path starts too.
      if (cuts && this.cuts.has(current)) break;
      if (path.length > records.length) return this.walkWatching(id);
      const parentId = current.parentId;
      if (!parentId) break;
      const before = at > 0 ? records[at - 1]! : undefined;
      if (before !== undefined && before.id === parentId) {
        current = before;
        at--;
      } else {
        current = this.byId.get(parentId);
        at = -1;
      }
    }
    return path.reverse();
  }

  /** `walkTo` for a tree whose links loop: a walk ends at the first id it meets again. */
  private walkWatching(id: string): EntryRecord[] {
    const path: EntryRecord[] = [];
    const seen = new Set<string>();
    let current = this.byId.get(id);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      // Where the tree cuts a cycle, the path starts too.
      if (this.cuts.has(current)) break;
      current = current.parentId ? this.byId.get(current.parentId) : undefined;
    }
    return path.reverse();
  }

  /** Direct children of `id` in file order. */
  childrenOf(id: string): EntryRecord[] {
    return this.records.filter((record) => record.parentId === id && record.id !== id);
  }

  /** How the entries link up, damaged links resolved (see tree-links.ts). */
  links(): TreeLinks {
    return resolveLinks(this.records, (id) => this.byId.get(id));
  }

  /**
   * The whole tree, every entry exactly once. Roots are entries whose parent is null, missing
   * or unknown, and the entry each parent cycle is cut at; children are ordered by timestamp,
   * then file order. With duplicate ids the later entry wins the id, as upstream; the earlier
   * stays a node of its own.
   */
  toNodes(): TreeNode[] {
    const links = this.links();
    const nodes = new Map<EntryRecord, TreeNode>();
    const nodeOf = (record: EntryRecord): TreeNode => {
      let node = nodes.get(record);
      if (!node) {
        const label = this.labelMap.get(record.id);
        node = {
          record,
          children: [],
          ...(label ? { label: label.label, labelTimestamp: label.timestamp } : {}),
        };
        nodes.set(record, node);
      }
      return node;
    };
    const roots = links.roots.map(nodeOf);
    for (const record of this.records) {
      const parent = links.parentOf.get(record);
      if (parent) nodeOf(parent).children.push(nodeOf(record));
    }
    for (const node of nodes.values()) {
      node.children.sort((a, b) => compareTimestamps(a.record.timestamp, b.record.timestamp));
    }
    return roots;
  }
}

function compareTimestamps(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return 0;
  return ta - tb;
}
