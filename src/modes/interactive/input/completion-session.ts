/**
 * Tab completion as the editor runs it: asks the provider (asynchronously — the user may keep
 * typing, and an answer for a text that has changed since is dropped), applies what Tab does,
 * keeps the list open while typing narrows it, and handles the list's keys.
 */
import { CompletionMenu, tabOutcome, type CompletionProvider, type Replacement } from "./completion.ts";
import type { EditorState } from "./editor-state.ts";
import type { KeyPress } from "./keys.ts";
import type { MenuView } from "./layout.ts";

export class CompletionSession {
  private menu: CompletionMenu | undefined;
  /** Bumped whenever a pending request becomes stale. */
  private generation = 0;

  constructor(
    private readonly state: EditorState,
    private readonly provider: CompletionProvider | undefined,
    /** Called when an answer arrived and changed the buffer or the list. */
    private readonly changed: () => void,
  ) {}

  get open(): boolean {
    return this.menu !== undefined;
  }

  view(): MenuView | undefined {
    return this.menu?.view();
  }

  close(): void {
    this.menu = undefined;
    this.generation++;
  }

  /** Tab with no list open. */
  tab(): void {
    void this.request(false);
  }

  /** After typing or deleting: an open list follows what is typed; a pending answer is stale. */
  edited(): void {
    this.generation++;
    if (this.menu) void this.request(true);
  }

  /** Keys while the list is open; false lets the key act normally (the list closes unless it is Backspace). */
  handleKey(key: KeyPress): boolean {
    const menu = this.menu;
    if (!menu) return false;
    switch (key.id) {
      case "tab":
      case "down":
        menu.next();
        return true;
      case "shift+tab":
      case "up":
        menu.previous();
        return true;
      case "enter":
        this.close();
        this.apply(menu.accept());
        return true;
      case "escape":
        this.close();
        return true;
      case "backspace":
        return false; // edits, then the list is refreshed
      default:
        this.close();
        return false;
    }
  }

  private apply(edit: Replacement): void {
    this.state.replaceRange(edit.from, edit.to, edit.text);
  }

  /** Asks the provider; `refresh` re-lists for an open list without inserting anything. */
  private async request(refresh: boolean): Promise<void> {
    if (!this.provider) return;
    const generation = ++this.generation;
    const { text, cursor } = this.state;
    let result: Awaited<ReturnType<CompletionProvider>>;
    try {
      result = await this.provider(text, cursor);
    } catch {
      return; // a failing provider just offers nothing
    }
    if (generation !== this.generation || this.state.text !== text || this.state.cursor !== cursor) return;
    if (refresh) {
      this.menu = result && result.items.length > 0 ? new CompletionMenu(result) : undefined;
    } else {
      const outcome = tabOutcome(text, result);
      if (outcome.kind === "insert") this.apply(outcome.edit);
      if (outcome.kind === "menu") {
        if (outcome.edit) this.apply(outcome.edit);
        this.menu = outcome.menu;
      }
    }
    this.changed();
  }
}
