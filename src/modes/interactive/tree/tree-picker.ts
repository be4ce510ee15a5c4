/**
 * The `/tree` picker in the terminal. It takes the screen's whole height while open and draws
 * itself whole after every key and every resize, from the first row of its frame
 * (dialog-frame.ts), so a terminal that re-wraps the old frame on a resize still shows one clean
 * tree. Closed, it leaves one line in the scrollback: what was chosen, or that it was cancelled.
 */
import { createInterface, type Key } from "node:readline";
import type { Readable } from "node:stream";
import { closedDialogLine } from "../dialogs.ts";
import { DialogFrame, type DialogTerminal } from "../dialog-frame.ts";
import type { Theme } from "../theme.ts";
import { fitParts, flatSafe } from "./fit.ts";
import { TreeBrowser } from "./tree-browser.ts";
import type { SessionTreeModel, TreeFilter } from "./tree-rows.ts";
import { drawTree } from "./tree-screen.ts";

export interface TreePickerStreams {
  input?: Readable & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };
  output?: DialogTerminal;
}

const QUESTION = "Session tree";
// Terminals that know synchronized output show each frame at once; the others ignore it.
const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";

/** The keys that switch straight to a filter (each toggles back to the default view), as in Pi. */
const FILTER_KEYS: Readonly<Record<string, TreeFilter>> = { d: "default", t: "no-tools", u: "user", l: "labelled", a: "all" };

export type KeyOutcome = "handled" | "choose" | "cancel" | "label" | "ignored";

const handled = (action: () => void): KeyOutcome => {
  action();
  return "handled";
};

// Control characters never reach a search or a label.
const printable = (char: string | undefined, key: Key): char is string => Boolean(char) && !key.ctrl && !key.meta && !/[\x00-\x1f\x7f-\x9f]/.test(char!);

/** What a key does while a label is written: Enter saves it ("label"), Escape gives it up. */
function applyLabelKey(browser: TreeBrowser, char: string | undefined, key: Key): KeyOutcome {
  if (key.ctrl && key.name === "c") return "cancel";
  if (key.name === "return" || key.name === "enter") return "label";
  if (key.name === "escape") return handled(() => browser.cancelLabel());
  if (key.name === "backspace") return handled(() => browser.editLabel((text) => [...text].slice(0, -1).join("")));
  if (printable(char, key)) return handled(() => browser.editLabel((text) => text + char));
  return "ignored";
}

/** What a key does to the browser, or to the picker (Enter, Escape, Ctrl+C, a label saved). */
export function applyKey(browser: TreeBrowser, char: string | undefined, key: Key, page: number): KeyOutcome {
  if (browser.labelDraft) return applyLabelKey(browser, char, key);
  const jump = key.ctrl || key.meta;
  if (key.shift && key.name === "l" && !jump) return handled(() => browser.startLabel());
  switch (key.name) {
    case "return":
    case "enter":
      return browser.chosen === undefined ? "ignored" : "choose";
    case "escape":
      // A search typed is cleared first, as in Pi; Escape on the plain tree cancels.
      return browser.search ? handled(() => browser.clearSearch()) : "cancel";
    case "up":
      return handled(() => browser.move(-1));
    case "down":
      return handled(() => browser.move(1));
    case "left":
      return handled(() => (jump ? browser.jumpBranch(-1) : browser.page(-page)));
    case "right":
      return handled(() => (jump ? browser.jumpBranch(1) : browser.page(page)));
    case "pageup":
      return handled(() => browser.page(-page));
    case "pagedown":
      return handled(() => browser.page(page));
    case "home":
      return handled(() => browser.page(-Infinity));
    case "end":
      return handled(() => browser.page(Infinity));
    case "backspace":
      return handled(() => browser.eraseSearch());
  }
  if (key.ctrl && key.name === "c") return "cancel";
  if (key.ctrl && key.name === "o") return handled(() => browser.cycleFilter(key.shift ? -1 : 1));
  const filter = key.ctrl && key.name ? FILTER_KEYS[key.name] : undefined;
  if (filter) return handled(() => browser.toggleFilter(filter));
  // Printable text (a key, or a paste) searches.
  if (printable(char, key)) return handled(() => browser.typeSearch(char));
  return "ignored";
}

/** Keeps a label written in the tree (undefined: removes it). */
export type LabelSetter = (entryId: string, label: string | undefined) => void;

/**
 * Lets the user choose an entry of the session tree; its id, or undefined when cancelled. Labels
 * written meanwhile are kept by `setLabel` as they are written. The caller has released the
 * terminal's input (the prompt editor is suspended).
 */
export function pickInTree(
  model: SessionTreeModel,
  theme: Theme,
  setLabel: LabelSetter,
  streams: TreePickerStreams = {},
  filter: TreeFilter = "default",
): Promise<string | undefined> {
  const input = streams.input ?? process.stdin;
  const frame = new DialogFrame(streams.output ?? process.stdout);
  const browser = new TreeBrowser(model, model.currentId, filter);
  const draw = (): void => {
    frame.write(SYNC_START);
    frame.redraw(drawTree(browser, { columns: frame.columns, rows: frame.rows }, theme));
    frame.write(SYNC_END);
  };
  return new Promise((resolve) => {
    const lines = createInterface({ input, escapeCodeTimeout: 50, terminal: true, prompt: "" });
    const onKey = (char: string | undefined, key: Key | undefined): void => {
      const outcome = applyKey(browser, char, key ?? { name: char }, Math.max(1, frame.rows - 8));
      if (outcome === "handled") draw();
      else if (outcome === "label") {
        const change = browser.finishLabel();
        if (change) setLabel(change.id, change.label);
        draw();
      } else if (outcome === "choose") close(browser.rows[browser.selected]);
      else if (outcome === "cancel") close(undefined);
    };
    const close = (chosen: { id: string; text: string } | undefined): void => {
      input.off("keypress", onKey);
      frame.off("resize", draw);
      lines.close();
      if (input.isTTY) input.setRawMode?.(false);
      const room = frame.columns - QUESTION.length - 6;
      frame.replaceWith(closedDialogLine(QUESTION, chosen && fitParts([{ text: flatSafe(chosen.text) }], room)));
      frame.write(SHOW_CURSOR);
      resolve(chosen?.id);
    };
    input.on("keypress", onKey);
    frame.on("resize", draw);
    if (input.isTTY) input.setRawMode?.(true);
    frame.write(HIDE_CURSOR);
    draw();
  });
}
