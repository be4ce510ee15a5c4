/**
 * The line under the start-up header that names the keys a new user needs first: how to send,
 * queue, stop, find commands and files, and quit. The keys are the ones in force (keybindings.json
 * may move them), so the hint never names a key that does something else.
 */
import type { KeyAction, KeyBindings } from "./input/keybindings.ts";
import { keyLabel } from "./commands/info.ts";
import type { Theme } from "./theme.ts";
import { stringWidth } from "../../util/width.ts";

const SEPARATOR = " · ";

/** The actions the hint names, each by its first key, in the order a first prompt needs them. */
const ACTION_WORDS: readonly (readonly [KeyAction, string])[] = [
  ["tui.input.submit", "send"],
  ["app.message.followUp", "queue"],
  ["app.interrupt", "stop"],
];

/** Each item of the hint: a key and what it does. An action without a key is left out. */
export function keyHintItems(bindings: KeyBindings): { key: string; words: string }[] {
  const first = (action: KeyAction) => bindings.keysFor(action)[0];
  const items = ACTION_WORDS.flatMap(([action, words]) => {
    const key = first(action);
    return key ? [{ key: keyLabel(key), words }] : [];
  });
  items.push({ key: "/", words: "commands" }, { key: "@", words: "files" });
  // Ctrl+C quits when pressed twice; Ctrl+D (on an empty prompt) when Ctrl+C is bound elsewhere.
  const clear = first("app.clear");
  const exit = first("app.exit");
  if (clear) items.push({ key: keyLabel(clear), words: "twice quit" });
  else if (exit) items.push({ key: keyLabel(exit), words: "quit" });
  return items;
}

/**
 * The hint as lines of at most `columns` cells: one line when it fits, otherwise broken between
 * items, never inside one (an item wider than the terminal stands alone, wrapped by it).
 */
export function keyHintLines(bindings: KeyBindings, columns: number, theme: Theme): string[] {
  const lines: { plain: string; styled: string }[] = [];
  for (const { key, words } of keyHintItems(bindings)) {
    const plain = `${key} ${words}`;
    const styled = `${theme.fg("accent", key)} ${theme.fg("dim", words)}`;
    const last = lines.at(-1);
    if (last && stringWidth(last.plain) + SEPARATOR.length + stringWidth(plain) <= columns) {
      last.plain += SEPARATOR + plain;
      last.styled += theme.fg("dim", SEPARATOR) + styled;
    } else lines.push({ plain, styled });
  }
  return lines.map((line) => line.styled);
}
