/**
 * Which key does what at the prompt: the default bindings, the user's `keybindings.json` over
 * them, and the lookup from a pressed key (`KeyPress.id`) to the action it runs.
 *
 * Action ids are upstream's namespaced ids (`tui.input.submit`, `app.model.select`, …); the
 * older flat names (`submit`, `selectModel`, …) are accepted and mapped. A user binding replaces
 * that action's default keys and takes its keys away from every other action's defaults.
 */
import * as v from "valibot";
import { closestName } from "../../../util/closest.ts";

/** Every action the prompt can bind, with its default keys, in the order `/hotkeys` lists them. */
export const DEFAULT_KEYBINDINGS = {
  "tui.input.submit": ["enter"],
  "app.message.followUp": ["alt+enter"],
  "tui.input.newLine": ["shift+enter", "ctrl+j"],
  "tui.input.tab": ["tab"],
  "app.interrupt": ["escape"],
  "app.clear": ["ctrl+c"],
  "app.exit": ["ctrl+d"],
  "app.suspend": ["ctrl+z"],
  "app.model.select": ["ctrl+l"],
  "app.model.cycleForward": ["ctrl+p"],
  "app.model.cycleBackward": ["ctrl+shift+p"],
  "app.thinking.cycle": ["shift+tab"],
  "app.thinking.toggle": ["ctrl+t"],
  "app.tools.expand": ["ctrl+o"],
  "app.tools.toggleAll": ["alt+o"],
  "app.message.dequeue": ["alt+up"],
  "app.editor.external": ["ctrl+g"],
  "tui.editor.cursorLeft": ["left", "ctrl+b"],
  "tui.editor.cursorRight": ["right", "ctrl+f"],
  "tui.editor.cursorWordLeft": ["alt+left", "ctrl+left", "alt+b"],
  "tui.editor.cursorWordRight": ["alt+right", "ctrl+right", "alt+f"],
  "tui.editor.cursorLineStart": ["home", "ctrl+a"],
  "tui.editor.cursorLineEnd": ["end", "ctrl+e"],
  "tui.editor.cursorUp": ["up"],
  "tui.editor.cursorDown": ["down"],
  "tui.editor.deleteCharBackward": ["backspace", "shift+backspace"],
  "tui.editor.deleteCharForward": ["delete"],
  "tui.editor.deleteWordBackward": ["ctrl+w", "alt+backspace", "ctrl+backspace"],
  "tui.editor.deleteWordForward": ["alt+d", "ctrl+delete"],
  "tui.editor.deleteToLineStart": ["ctrl+u"],
  "tui.editor.deleteToLineEnd": ["ctrl+k"],
  "tui.editor.yank": ["ctrl+y"],
} as const satisfies Record<string, readonly string[]>;

export type KeyAction = keyof typeof DEFAULT_KEYBINDINGS;

/**
 * The default keys on `platform`. On Windows, Windows Terminal takes Alt+Enter (full screen)
 * before pig sees it, so Ctrl+Q queues a follow-up there, with Alt+Enter kept for terminals
 * that pass it on.
 */
export function defaultKeybindings(platform: string = process.platform): Readonly<Record<KeyAction, readonly string[]>> {
  if (platform !== "win32") return DEFAULT_KEYBINDINGS;
  return { ...DEFAULT_KEYBINDINGS, "app.message.followUp": ["ctrl+q", "alt+enter"] };
}

const ACTIONS = Object.keys(DEFAULT_KEYBINDINGS) as KeyAction[];

/** The flat names older configurations use. */
const LEGACY_NAMES: Readonly<Record<string, KeyAction>> = {
  submit: "tui.input.submit",
  followUp: "app.message.followUp",
  newLine: "tui.input.newLine",
  tab: "tui.input.tab",
  interrupt: "app.interrupt",
  clear: "app.clear",
  exit: "app.exit",
  suspend: "app.suspend",
  selectModel: "app.model.select",
  cycleModelForward: "app.model.cycleForward",
  cycleModelBackward: "app.model.cycleBackward",
  cycleThinkingLevel: "app.thinking.cycle",
  toggleThinking: "app.thinking.toggle",
  expandTools: "app.tools.expand",
  dequeue: "app.message.dequeue",
  externalEditor: "app.editor.external",
  cursorLeft: "tui.editor.cursorLeft",
  cursorRight: "tui.editor.cursorRight",
  cursorWordLeft: "tui.editor.cursorWordLeft",
  cursorWordRight: "tui.editor.cursorWordRight",
  cursorLineStart: "tui.editor.cursorLineStart",
  cursorLineEnd: "tui.editor.cursorLineEnd",
  cursorUp: "tui.editor.cursorUp",
  cursorDown: "tui.editor.cursorDown",
  deleteCharBackward: "tui.editor.deleteCharBackward",
  deleteCharForward: "tui.editor.deleteCharForward",
  deleteWordBackward: "tui.editor.deleteWordBackward",
  deleteWordForward: "tui.editor.deleteWordForward",
  deleteToLineStart: "tui.editor.deleteToLineStart",
  deleteToLineEnd: "tui.editor.deleteToLineEnd",
  yank: "tui.editor.yank",
};

/**
 * Ids upstream knows for screens and features pig's prompt does not have (pickers, the tree
 * view, undo, image paste): accepted without complaint, so one file serves both.
 */
const FOREIGN_PREFIXES = ["tui.select.", "app.session.", "app.tree.", "app.models."];
const FOREIGN_IDS = new Set([
  "app.clipboard.pasteImage",
  "tui.editor.undo",
  "tui.editor.yankPop",
  "tui.editor.jumpForward",
  "tui.editor.jumpBackward",
  "tui.editor.pageUp",
  "tui.editor.pageDown",
  "tui.input.copy",
  "app.message.copy",
  "toggleSessionNamedFilter",
  "toggleSessionPath",
  "toggleSessionSort",
  "renameSession",
  "deleteSession",
  "deleteSessionNoninvasive",
  "treeFoldOrUp",
  "treeUnfoldOrDown",
  "treeEditLabel",
  "treeToggleLabelTimestamp",
  "pasteImage",
  "undo",
  "yankPop",
  "jumpForward",
  "jumpBackward",
  "pageUp",
  "pageDown",
  "copy",
  "newSession",
  "tree",
  "fork",
  "resume",
  "selectUp",
  "selectDown",
  "selectPageUp",
  "selectPageDown",
  "selectConfirm",
  "selectCancel",
]);

const NAMED_KEYS = new Set([
  "enter",
  "tab",
  "escape",
  "backspace",
  "delete",
  "insert",
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "pageup",
  "pagedown",
  "space",
]);
const KEY_SYNONYMS: Readonly<Record<string, string>> = { esc: "escape", return: "enter" };
const MODIFIERS = ["ctrl", "alt", "shift"] as const;

/**
 * A key as the decoder names it (`ctrl+alt+shift+name`, modifiers in that order, lower case),
 * or a reason it can never arrive as a key press. A capital letter means Shift with it.
 */
export function normalizeKey(text: string): { key: string } | { error: string } {
  let parts = text.split("+").map((p) => p.trim());
  // "ctrl++" and "+" name the plus key.
  if (parts.length > 1 && parts.at(-1) === "" && parts.at(-2) === "") parts = [...parts.slice(0, -2), "+"];
  const last = parts.at(-1) ?? "";
  const mods = new Set<string>(/^[A-Z]$/.test(last) ? ["shift"] : []);
  for (const raw of parts.slice(0, -1)) {
    const mod = raw.toLowerCase();
    if (mod === "super" || mod === "cmd" || mod === "meta")
      return { error: `"${text}": ${mod}+ keys are not reported by terminals without the kitty keyboard protocol` };
    if (!(MODIFIERS as readonly string[]).includes(mod)) return { error: `"${text}": unknown modifier "${raw}" (use ctrl, alt, shift)` };
    mods.add(mod);
  }
  const lower = last.toLowerCase();
  const name = KEY_SYNONYMS[lower] ?? lower;
  const printable = [...name].length === 1 || name === "space";
  if (!(NAMED_KEYS.has(name) || /^f([1-9]|1[0-2])$/.test(name) || printable) || name === "") {
    return { error: `"${text}": unknown key "${last}"` };
  }
  // Typed characters (with or without Shift) are text, never key presses.
  if (printable && !mods.has("ctrl") && !mods.has("alt")) {
    return { error: `"${text}": a character key needs ctrl+ or alt+ (without them it is typed as text)` };
  }
  return { key: `${MODIFIERS.filter((m) => mods.has(m)).map((m) => `${m}+`).join("")}${name}` };
}

/** The bindings in force: what a key does, and which keys an action has. */
export class KeyBindings {
  private readonly byKey = new Map<string, KeyAction>();

  constructor(private keys: Readonly<Record<KeyAction, readonly string[]>>) {
    this.index();
  }

  /**
   * Takes `other`'s bindings in place (`/reload` after keybindings.json changed): the editor and
   * everything else holding this object follow at once.
   */
  adopt(other: KeyBindings): void {
    this.keys = other.keys;
    this.index();
  }

  private index(): void {
    this.byKey.clear();
    for (const action of ACTIONS) for (const key of this.keys[action]) if (!this.byKey.has(key)) this.byKey.set(key, action);
  }

  static defaults(platform: string = process.platform): KeyBindings {
    return new KeyBindings(defaultKeybindings(platform));
  }

  actionFor(keyId: string): KeyAction | undefined {
    return this.byKey.get(keyId);
  }

  keysFor(action: KeyAction): readonly string[] {
    return this.keys[action];
  }
}

export interface ResolvedKeybindings {
  bindings: KeyBindings;
  /** Problems with the user's file, each naming it and the id or key at fault. */
  warnings: string[];
}

/**
 * The defaults (`platform`'s) with the user's bindings over them. `source` names the file in
 * warnings. Bad entries are skipped one by one; the rest of the file still applies.
 */
export function resolveKeybindings(user: unknown, source: string, platform: string = process.platform): ResolvedKeybindings {
  const warnings: string[] = [];
  const defaults = defaultKeybindings(platform);
  const parsed = v.safeParse(v.record(v.string(), v.unknown()), user);
  if (!parsed.success || Array.isArray(user)) {
    const got = Array.isArray(user) ? "a list" : JSON.stringify(user);
    return { bindings: KeyBindings.defaults(platform), warnings: [`${source}: expected an object of action ids to keys, not ${got}; using the default keys`] };
  }
  const chosen = new Map<KeyAction, string[]>();
  const claimedBy = new Map<string, KeyAction>();
  for (const [id, value] of Object.entries(parsed.output)) {
    const action = (Object.hasOwn(DEFAULT_KEYBINDINGS, id) ? id : LEGACY_NAMES[id]) as KeyAction | undefined;
    if (!action) {
      if (!FOREIGN_IDS.has(id) && !FOREIGN_PREFIXES.some((p) => id.startsWith(p))) {
        const guess = closestName(id, [...ACTIONS, ...Object.keys(LEGACY_NAMES)]);
        warnings.push(`${source}: unknown action "${id}"${guess ? ` (did you mean "${guess}"?)` : ""}; ignored`);
      }
      continue;
    }
    const list = typeof value === "string" ? [value] : Array.isArray(value) && value.every((k) => typeof k === "string") ? value : undefined;
    if (!list) {
      warnings.push(`${source}: "${id}" must be a key or a list of keys, not ${JSON.stringify(value)}; its default keys stay`);
      continue;
    }
    if (chosen.has(action)) {
      warnings.push(`${source}: "${id}" binds ${action} again; the later entry wins`);
      for (const [key, owner] of claimedBy) if (owner === action) claimedBy.delete(key);
    }
    const keys: string[] = [];
    for (const text of list) {
      const normalized = normalizeKey(text);
      if ("error" in normalized) {
        warnings.push(`${source}: "${id}": ${normalized.error}`);
        continue;
      }
      const owner = claimedBy.get(normalized.key);
      if (owner && owner !== action) {
        warnings.push(`${source}: "${id}": ${normalized.key} is already bound to ${owner}`);
        continue;
      }
      claimedBy.set(normalized.key, action);
      if (!keys.includes(normalized.key)) keys.push(normalized.key);
    }
    chosen.set(action, keys);
  }
  const keys = {} as Record<KeyAction, readonly string[]>;
  for (const action of ACTIONS) {
    keys[action] = chosen.get(action) ?? defaults[action].filter((key) => !claimedBy.has(key));
  }
  return { bindings: new KeyBindings(keys), warnings };
}
