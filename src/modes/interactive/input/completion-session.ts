/**
 * Completion as the editor runs it: asks the provider (asynchronously — the user may keep
 * typing, and an answer for a text that has changed since is dropped), applies what Tab does,
 * keeps the list open while typing narrows it, and handles the list's keys.
 *
 * An optional second provider is asked after every edit, without Tab: the slash command names,
 * so that typing `/` at the start of the prompt lists the commands at once. Such a list follows
 * what is typed and closes when its provider has nothing more to offer (a space after the name).
 * Enter on it runs the command: the highlighted name is put in and submitted when it was chosen
 * (the list moved), typed in full, or the only name the typed letters begin; otherwise what was
 * typed is submitted as it is, for the caller to say what it is (a misspelling, or a prefix
 * several names share). Enter on a bare `/` does nothing. Tab on it completes as Tab does.
 *
 * A third provider, also asked after every edit when the first has nothing, opens a list that
 * then behaves as Tab's does (Enter puts the highlighted item in): the project's files while an
 * `@` mention is typed.
 */
import { CompletionMenu, tabOutcome, type CompletionProvider, type Replacement } from "./completion.ts";
import type { EditorState } from "./editor-state.ts";
import type { KeyPress } from "./keys.ts";
import type { MenuView } from "./layout.ts";

export class CompletionSession {
  private menu: CompletionMenu | undefined;
  /**
   * What opened the list: Tab, the command names asked after every edit (`asTyped`), or the
   * lists asked after every edit when those have nothing (`listsAsTyped`: an `@` mention's files).
   */
  private openedBy: "tab" | "commands" | "typing" = "tab";
  /** The buffer the open list was made for (it is out of date once the buffer differs). */
  private menuText = "";
  /** Bumped whenever a pending request becomes stale. */
  private generation = 0;

  constructor(
    private readonly state: EditorState,
    private readonly provider: CompletionProvider | undefined,
    /** Called when an answer arrived and changed the buffer or the list. */
    private readonly changed: () => void,
    /** Asked after every edit; a list it answers opens without Tab. */
    private readonly asTyped?: CompletionProvider,
    /** Asked after every edit when `asTyped` has nothing; its list opens without Tab and acts as Tab's. */
    private readonly listsAsTyped?: CompletionProvider,
  ) {}

  get open(): boolean {
    return this.menu !== undefined;
  }

  view(): MenuView | undefined {
    return this.menu?.view();
  }

  close(): void {
    this.menu = undefined;
    this.openedBy = "tab";
    this.generation++;
  }

  /** Tab with no list open. */
  tab(): void {
    void this.request(false);
  }

  /** After typing or deleting: an open list follows what is typed; a pending answer is stale. */
  edited(): void {
    this.generation++;
    if (this.menu && this.openedBy !== "commands") void this.request(true);
    else if (this.asTyped || this.listsAsTyped) void this.requestAsTyped();
  }

  /** Keys while the list is open; false lets the key act normally (the list closes unless it is Backspace). */
  handleKey(key: KeyPress): boolean {
    const menu = this.menu;
    if (!menu) return false;
    switch (key.id) {
      case "tab":
        if (this.openedBy !== "tab" && !menu.moved) {
          // Tab completes as it does with no list open: one match is put in, several are
          // extended to what they share.
          this.close();
          this.tab();
          return true;
        }
        menu.next();
        return true;
      case "down":
        menu.next();
        return true;
      case "shift+tab":
      case "up":
        menu.previous();
        return true;
      case "enter":
        return this.enter(menu);
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

  /** Enter on the list: true when it was handled, false to let Enter submit the buffer. */
  private enter(menu: CompletionMenu): boolean {
    const commands = this.openedBy === "commands";
    // Typed since the list was made, its answer not yet in: the list does not show what the
    // buffer holds, so nothing of it is put in.
    const current = this.state.text === this.menuText;
    // A bare `/` names no command: Enter waits for one to be typed or chosen.
    if (commands && current && !menu.moved && /^\/?$/.test(menu.typed(this.state.text))) return true;
    this.close();
    if (!commands) {
      if (current) {
        const edit = menu.accept();
        // What is typed is already the item (`@src/app.ts` in full): Enter sends, as it would
        // had the list not opened.
        if (!menu.moved && this.state.text.slice(edit.from, edit.to) === edit.text.trimEnd()) return false;
        this.apply(edit);
        // A directory put in lists what it holds at once, as typing its name would.
        if (this.listsAsTyped) void this.requestAsTyped();
      }
      return true;
    }
    // Run only what is clearly meant: the name chosen in the list, the one typed in full, or
    // the only one the typed letters begin (`/e` could be /exit or /export: sent as typed).
    if (current && (menu.moved || menu.selectedIsMeant(this.state.text))) {
      // Submitted at once: without the space that completion leaves for arguments.
      const edit = menu.accept();
      this.apply({ ...edit, text: edit.text.trimEnd() });
    }
    return false;
  }

  private apply(edit: Replacement): void {
    this.state.replaceRange(edit.from, edit.to, edit.text);
  }

  private show(menu: CompletionMenu | undefined, openedBy: "tab" | "commands" | "typing"): void {
    this.menu = menu;
    this.openedBy = menu === undefined ? "tab" : openedBy;
    this.menuText = this.state.text;
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
      // A list that opened as an `@` mention was typed stays such a list as it narrows.
      this.show(result && result.items.length > 0 ? new CompletionMenu(result) : undefined, this.openedBy);
    } else {
      const outcome = tabOutcome(text, result);
      if (outcome.kind === "insert") this.apply(outcome.edit);
      if (outcome.kind === "menu") {
        if (outcome.edit) this.apply(outcome.edit);
        this.show(outcome.menu, "tab");
      }
    }
    this.changed();
  }

  /** Asks the providers consulted after every edit: the first answer opens (or updates, or closes) its list. */
  private async requestAsTyped(): Promise<void> {
    const generation = ++this.generation;
    const { text, cursor } = this.state;
    const ask = async (provider: CompletionProvider | undefined) => {
      if (!provider) return undefined;
      try {
        const result = await provider(text, cursor);
        return result && result.items.length > 0 ? result : undefined;
      } catch {
        return undefined;
      }
    };
    const commands = await ask(this.asTyped);
    const list = commands ? undefined : await ask(this.listsAsTyped);
    if (generation !== this.generation || this.state.text !== text || this.state.cursor !== cursor) return;
    const wasOpen = this.menu !== undefined;
    const result = commands ?? list;
    this.show(result ? new CompletionMenu(result) : undefined, commands ? "commands" : "typing");
    if (wasOpen || this.menu) this.changed();
  }
}
