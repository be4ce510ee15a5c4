/**
 * Stand-ins for `pi-tui`, so extensions that build components still load in pig. pig's line UI
 * never mounts them (ctx.ui.custom and friends are ignored), but the classes construct, hold
 * their text and render plain lines, and the text helpers measure and cut like Pi's.
 */
import { stringWidth, stripAnsi, truncateToWidth as cut } from "../../util/width.ts";

type Lines = string[];

export const CURSOR_MARKER = "\x1b_pi:c\x07";

/** Upstream draws a cursor over `text` with its own markers; pig's lines are plain, so the text shows as it is. */
export function renderFakeCursor(text: string): string {
  return text;
}

export function visibleWidth(text: string): number {
  return stringWidth(text);
}

export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", _pad = false): string {
  return cut(text, maxWidth, ellipsis);
}

export function wrapTextWithAnsi(text: string, width: number): Lines {
  const out: Lines = [];
  for (const line of text.split("\n")) {
    out.push(...Bun.wrapAnsi(line, Math.max(1, width), { hard: true, trim: false }).split("\n"));
  }
  return out;
}

export function sliceByColumn(text: string, start: number, length: number): string {
  return stripAnsi(text).slice(start, start + length);
}

export function stripTerminalSequences(text: string): string {
  return stripAnsi(text);
}

export function fuzzyMatch(query: string, text: string): { matches: boolean; score: number } {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  let at = 0;
  for (const ch of q) {
    at = t.indexOf(ch, at);
    if (at < 0) return { matches: false, score: 0 };
    at++;
  }
  return { matches: true, score: q.length / Math.max(1, t.length) };
}

export function fuzzyFilter<T>(items: readonly T[], query: string, getText: (item: T) => string = (i) => String(i)): T[] {
  if (!query) return [...items];
  return items.filter((i) => fuzzyMatch(query, getText(i)).matches);
}

/** Key ids as Pi spells them (`Key.ctrl("x")` → "ctrl+x"); matching raw input is not needed here. */
export const Key = new Proxy(
  {
    ctrl: (k: string) => `ctrl+${k}`,
    alt: (k: string) => `alt+${k}`,
    shift: (k: string) => `shift+${k}`,
    super: (k: string) => `super+${k}`,
    ctrlShift: (k: string) => `ctrl+shift+${k}`,
    shiftCtrl: (k: string) => `shift+ctrl+${k}`,
    ctrlAlt: (k: string) => `ctrl+alt+${k}`,
    altCtrl: (k: string) => `alt+ctrl+${k}`,
    shiftAlt: (k: string) => `shift+alt+${k}`,
    altShift: (k: string) => `alt+shift+${k}`,
  } as Record<string, unknown>,
  { get: (target, key) => (typeof key === "string" && key in target ? target[key] : String(key)) },
);

export function matchesKey(_data: string, _key: string): boolean {
  return false;
}
export function parseKey(_data: string): string | undefined {
  return undefined;
}
export const isKeyRelease = (_data: string): boolean => false;
export const isKeyRepeat = (_data: string): boolean => false;
export const isFocusable = (c: unknown): boolean => !!c && typeof (c as { handleInput?: unknown }).handleInput === "function";

/** The common base: a component holds state, renders lines, ignores input. */
export class Component {
  [key: string]: unknown;
  render(_width: number): Lines {
    return [];
  }
  invalidate(): void {}
  handleInput(_data: string): void {}
}

export class Text extends Component {
  constructor(
    public text = "",
    public paddingX = 0,
    public paddingY = 0,
  ) {
    super();
  }
  setText(text: string): void {
    this.text = text;
  }
  override render(width: number): Lines {
    return this.text ? wrapTextWithAnsi(this.text, Math.max(1, width - 2 * this.paddingX)) : [];
  }
}

export class TruncatedText extends Text {
  override render(width: number): Lines {
    return this.text ? [truncateToWidth(this.text.split("\n")[0] ?? "", width)] : [];
  }
}

export class Spacer extends Component {
  constructor(public lines = 1) {
    super();
  }
  override render(): Lines {
    return Array.from({ length: this.lines }, () => "");
  }
}

export class Container extends Component {
  children: Component[] = [];
  addChild(child: Component): void {
    this.children.push(child);
  }
  removeChild(child: Component): void {
    this.children = this.children.filter((c) => c !== child);
  }
  clear(): void {
    this.children = [];
  }
  override render(width: number): Lines {
    return this.children.flatMap((c) => c.render(width));
  }
}

export class Box extends Container {
  constructor(..._args: unknown[]) {
    super();
  }
  setBgFn(_fn: unknown): void {}
}

export class Markdown extends Text {
  constructor(text = "", paddingX = 0, paddingY = 0, ..._rest: unknown[]) {
    super(text, paddingX, paddingY);
  }
}

export class SelectList extends Component {
  onSelect?: (item: unknown) => void;
  onCancel?: () => void;
  onSelectionChange?: (item: unknown) => void;
  constructor(
    public items: { value: string; label?: string; description?: string }[] = [],
    ..._rest: unknown[]
  ) {
    super();
  }
  setFilter(_filter: string): void {}
  setSelectedIndex(_index: number): void {}
  getSelectedItem(): unknown {
    return this.items[0];
  }
  override render(width: number): Lines {
    return this.items.map((i) => truncateToWidth(i.label ?? i.value, width));
  }
}

export class SettingsList extends SelectList {}

export class Input extends Component {
  value = "";
  onSubmit?: (value: string) => void;
  onEscape?: () => void;
  getValue(): string {
    return this.value;
  }
  setValue(value: string): void {
    this.value = value;
  }
}

export class Editor extends Input {
  constructor(..._args: unknown[]) {
    super();
  }
  getText(): string {
    return this.value;
  }
  setText(text: string): void {
    this.value = text;
  }
}

export class Loader extends Text {
  start(): void {}
  stop(): void {}
  setMessage(message: string): void {
    this.text = message;
  }
}
export class CancellableLoader extends Loader {
  readonly signal = new AbortController().signal;
}
export class Image extends Component {}
export class HStack extends Container {}
export class VStack extends Container {}
export class ScrollView extends Container {}

/** Pi's TUI: extensions get one only inside ctx.ui.custom, which pig does not call. */
export class TUI extends Container {
  requestRender(): void {}
  start(): void {}
  stop(): void {}
}
