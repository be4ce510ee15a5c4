/**
 * Tab completion: the provider API, and what Tab does with a provider's answer (pure, so the
 * editor only wires it). One item is inserted; several extend the typed text to their common
 * prefix and open a short list, in which Tab / Shift+Tab / arrows move, Enter accepts and Esc
 * closes. A list may also open by itself while a command name is typed (see completion-session.ts).
 * The providers themselves live in slash-commands.ts and file-mentions.ts.
 */

export interface CompletionItem {
  /** What replaces `[replaceFrom, replaceTo)`, e.g. "/model " or "@src/app.ts ". */
  value: string;
  /** What the list shows (defaults to `value`). */
  label?: string;
  /** A description shown dimmed after the label. */
  hint?: string;
}

export interface CompletionResult {
  replaceFrom: number;
  replaceTo: number;
  items: CompletionItem[];
}

/** Asked on Tab with the buffer and cursor; undefined (or no items) when it has nothing to offer. */
export type CompletionProvider = (text: string, cursor: number) => Promise<CompletionResult | undefined>;

/** The whitespace-delimited word around the cursor: `[from, to)`, and its part before the cursor. */
export function wordAt(text: string, cursor: number): { from: number; to: number; word: string } {
  let from = cursor;
  while (from > 0 && !/\s/.test(text[from - 1] as string)) from--;
  let to = cursor;
  while (to < text.length && !/\s/.test(text[to] as string)) to++;
  return { from, to, word: text.slice(from, cursor) };
}

/** The first provider that offers anything wins. */
export function combineProviders(...providers: CompletionProvider[]): CompletionProvider {
  return async (text, cursor) => {
    for (const provider of providers) {
      const result = await provider(text, cursor);
      if (result && result.items.length > 0) return result;
    }
    return undefined;
  };
}

/** The longest string every value starts with. */
export function commonPrefix(values: readonly string[]): string {
  const [first, ...rest] = values;
  if (first === undefined) return "";
  let length = first.length;
  for (const value of rest) {
    let i = 0;
    while (i < length && i < value.length && value[i] === first[i]) i++;
    length = i;
  }
  // Never end in the middle of a surrogate pair.
  const last = first.charCodeAt(length - 1);
  if (length > 0 && last >= 0xd800 && last <= 0xdbff) length--;
  return first.slice(0, length);
}

/** A text edit: replace `[from, to)` with `text`, cursor after it. */
export interface Replacement {
  from: number;
  to: number;
  text: string;
}

export function itemLabel(item: CompletionItem): string {
  return item.label ?? item.value;
}

/** An open completion list. */
export class CompletionMenu {
  selected = 0;
  /** Whether the selection was moved (Tab, arrows) rather than left on the first item. */
  moved = false;

  constructor(readonly result: CompletionResult) {}

  get items(): readonly CompletionItem[] {
    return this.result.items;
  }

  next(): void {
    this.selected = (this.selected + 1) % this.items.length;
    this.moved = true;
  }

  previous(): void {
    this.selected = (this.selected - 1 + this.items.length) % this.items.length;
    this.moved = true;
  }

  /** Whether the selected item begins with what `text` holds where it would go (ignoring case). */
  /** What was typed of the word the list completes. */
  typed(text: string): string {
    return text.slice(this.result.replaceFrom, this.result.replaceTo);
  }

  /** Whether the typed word is the selected item's whole name, or begins one item only: that one. */
  selectedIsMeant(text: string): boolean {
    const typed = this.typed(text).toLowerCase();
    const item = this.items[this.selected];
    if (!item) return false;
    if (item.value.toLowerCase() === typed) return true;
    const continuing = this.items.filter((i) => i.value.toLowerCase().startsWith(typed));
    return continuing.length === 1 && continuing[0] === item;
  }

  /** The edit that accepts the selected item. */
  accept(): Replacement {
    const item = this.items[this.selected] ?? this.items[0];
    return { from: this.result.replaceFrom, to: this.result.replaceTo, text: item?.value ?? "" };
  }

  view(): { items: { label: string; hint?: string }[]; selected: number } {
    return { items: this.items.map((item) => ({ label: itemLabel(item), hint: item.hint })), selected: this.selected };
  }
}

/** What Tab does with a provider's answer for `text`. */
export type TabOutcome =
  | { kind: "none" }
  | { kind: "insert"; edit: Replacement }
  /** Several items: apply `edit` (the common prefix, when it adds something), then list them. */
  | { kind: "menu"; edit: Replacement | undefined; menu: CompletionMenu };

export function tabOutcome(text: string, result: CompletionResult | undefined): TabOutcome {
  if (!result || result.items.length === 0) return { kind: "none" };
  const { replaceFrom: from, replaceTo: to } = result;
  if (result.items.length === 1) return { kind: "insert", edit: { from, to, text: (result.items[0] as CompletionItem).value } };
  const prefix = commonPrefix(result.items.map((item) => item.value));
  const typed = text.slice(from, to);
  const extends_ = prefix.length > typed.length && prefix.toLowerCase().startsWith(typed.toLowerCase());
  const edit = extends_ ? { from, to, text: prefix } : undefined;
  // After the prefix is inserted the items replace the range the prefix now occupies.
  const menu = new CompletionMenu(extends_ ? { ...result, replaceTo: from + prefix.length } : result);
  return { kind: "menu", edit, menu };
}
