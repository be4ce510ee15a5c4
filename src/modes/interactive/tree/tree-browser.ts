/**
 * Where the user is in `/tree` and what they asked it to show: the filter, the search typed, the
 * rows they give and the row selected. Changing what shows keeps the same entry selected (or
 * the nearest one above it that still shows). No terminal here: the picker drives it by keys.
 */
import { layoutTree, TREE_FILTERS, type SessionTreeModel, type TreeFilter, type TreeLayout, type TreeRow } from "./tree-rows.ts";

export class TreeBrowser {
  filter: TreeFilter;
  search = "";
  /** A label being written for an entry (Shift+L): the entry and the text so far. */
  labelDraft: { id: string; text: string } | undefined;
  layout: TreeLayout;
  selected = 0;

  constructor(
    private readonly model: SessionTreeModel,
    initialId: string | undefined = model.currentId,
    /** The filter it opens with (setting `treeFilterMode`). */
    filter: TreeFilter = "default",
  ) {
    this.filter = filter;
    this.layout = layoutTree(model, this.filter);
    this.selectEntry(initialId);
  }

  get rows(): readonly TreeRow[] {
    return this.layout.rows;
  }

  get currentId(): string | undefined {
    return this.model.currentId;
  }

  /** The entry chosen with Enter; undefined when nothing shows. */
  get chosen(): string | undefined {
    return this.rows[this.selected]?.id;
  }

  /** Up and down wrap around, as in every list pig shows. */
  move(delta: number): void {
    const count = this.rows.length;
    if (count > 0) this.selected = (((this.selected + delta) % count) + count) % count;
  }

  /** A page (or to the first/last row), stopping at the ends. */
  page(delta: number): void {
    this.selected = Math.max(0, Math.min(this.rows.length - 1, this.selected + delta));
  }

  /** The next (or previous) row that starts a branch; the last (or first) row when there is none. */
  jumpBranch(direction: 1 | -1): void {
    for (let i = this.selected + direction; i >= 0 && i < this.rows.length; i += direction) {
      if (this.rows[i]!.branchStart) {
        this.selected = i;
        return;
      }
    }
    this.selected = direction > 0 ? Math.max(0, this.rows.length - 1) : 0;
  }

  cycleFilter(direction: 1 | -1): void {
    const index = TREE_FILTERS.indexOf(this.filter);
    this.show(TREE_FILTERS[(index + direction + TREE_FILTERS.length) % TREE_FILTERS.length]!, this.search);
  }

  /** A filter's own key switches to it, or back to the default view when it is on (as in Pi). */
  toggleFilter(filter: TreeFilter): void {
    this.show(this.filter === filter ? "default" : filter, this.search);
  }

  typeSearch(text: string): void {
    this.show(this.filter, this.search + text);
  }

  eraseSearch(): void {
    if (this.search) this.show(this.filter, [...this.search].slice(0, -1).join(""));
  }

  /** Starts writing the selected entry's label, from the one it has. */
  startLabel(): void {
    const id = this.chosen;
    if (id === undefined) return;
    this.labelDraft = { id, text: this.model.entries.find((e) => e.id === id)?.label ?? "" };
  }

  editLabel(edit: (text: string) => string): void {
    if (this.labelDraft) this.labelDraft.text = edit(this.labelDraft.text);
  }

  cancelLabel(): void {
    this.labelDraft = undefined;
  }

  /** The label written (undefined: removed), now shown on its entry; undefined when none was being written. */
  finishLabel(): { id: string; label: string | undefined } | undefined {
    const draft = this.labelDraft;
    if (!draft) return undefined;
    this.labelDraft = undefined;
    const label = draft.text.trim() || undefined;
    const entry = this.model.entries.find((e) => e.id === draft.id);
    if (entry) {
      if (label === undefined) delete entry.label;
      else entry.label = label;
    }
    this.show(this.filter, this.search);
    return { id: draft.id, label };
  }

  clearSearch(): void {
    this.show(this.filter, "");
  }

  private show(filter: TreeFilter, search: string): void {
    const keep = this.chosen;
    this.filter = filter;
    this.search = search;
    this.layout = layoutTree(this.model, filter, search);
    this.selectEntry(keep);
  }

  private selectEntry(id: string | undefined): void {
    const found = id === undefined ? undefined : this.layout.rowOf(id);
    const here = this.model.currentId === undefined ? undefined : this.layout.rowOf(this.model.currentId);
    this.selected = found ?? here ?? Math.max(0, this.rows.length - 1);
  }
}
