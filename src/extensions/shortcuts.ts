/**
 * Keyboard shortcuts extensions register (`pi.registerShortcut`) for the interactive prompt.
 * Keys of the actions upstream reserves (interrupt, submit, exit, model and thinking keys, …) are
 * refused, whichever keys the user bound those actions to; taking the key of another built-in
 * action works, with a warning. When two extensions take one key the later one wins, as upstream.
 */

/** Upstream's reserved action ids (0.87.1). Some are for screens pig's prompt does not have. */
export const RESERVED_ACTIONS: readonly string[] = [
  "app.interrupt",
  "app.clear",
  "app.exit",
  "app.suspend",
  "app.thinking.cycle",
  "app.model.cycleForward",
  "app.model.cycleBackward",
  "app.model.select",
  "app.tools.expand",
  "app.thinking.toggle",
  "app.editor.external",
  "app.message.copy",
  "app.message.followUp",
  "tui.input.submit",
  "tui.select.confirm",
  "tui.select.cancel",
  "tui.input.copy",
  "tui.editor.deleteToLineEnd",
];

/**
 * Keys of reserved actions pig has no binding for (its dialogs confirm with Enter and cancel
 * with Escape or Ctrl+C): reserved all the same, so an extension behaves alike in Pi and pig.
 */
const UNBOUND_RESERVED_KEYS: Readonly<Record<string, readonly string[]>> = {
  "tui.select.confirm": ["enter"],
  "tui.select.cancel": ["escape", "ctrl+c"],
  "tui.input.copy": ["ctrl+c"],
  "app.message.copy": [],
};

export interface ShortcutDefinition<Ctx = unknown> {
  description?: string;
  handler(ctx: Ctx): Promise<void> | void;
}

export interface RegisteredShortcut<Ctx = unknown> extends ShortcutDefinition<Ctx> {
  /** The key as registered; once resolved, as the prompt names it (`ctrl+shift+x`). */
  key: string;
  extensionPath: string;
}

export interface ShortcutDiagnostic {
  type: "warning" | "error";
  message: string;
  extensionPath: string;
}

/** The keys in force: which action a key runs, and which keys an action has. */
export interface BuiltinKeys {
  actionFor(key: string): string | undefined;
  keysFor(action: string): readonly string[];
}

/** Normalises a key as written by an extension; an error text when it can never be pressed. */
export type KeyNormalizer = (key: string) => { key: string } | { error: string };

/** The shortcuts in force once checked against the keys in force, and what was said about them. */
export interface ResolvedShortcuts<Ctx = unknown> {
  /** The shortcut bound to a pressed key (`KeyPress.id`), if any. */
  forKey(key: string): RegisteredShortcut<Ctx> | undefined;
  list(): readonly RegisteredShortcut<Ctx>[];
  diagnostics: readonly ShortcutDiagnostic[];
}

/**
 * Registrations are kept as given; the interactive mode resolves them against its key bindings
 * (which exist only there, and which the user's keybindings.json changes).
 */
export class ShortcutRegistry<Ctx = unknown> {
  private readonly entries: RegisteredShortcut<Ctx>[] = [];

  register(key: string, definition: ShortcutDefinition<Ctx>, extensionPath: string): void {
    this.entries.push({ ...definition, key, extensionPath });
  }

  /** Drops what one extension registered. */
  unregisterFrom(extensionPath: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.extensionPath === extensionPath) this.entries.splice(i, 1);
  }

  registered(): readonly RegisteredShortcut<Ctx>[] {
    return this.entries;
  }

  resolve(builtin: BuiltinKeys, normalize: KeyNormalizer = (key) => ({ key: key.toLowerCase() })): ResolvedShortcuts<Ctx> {
    const reserved = new Map<string, string>();
    for (const action of RESERVED_ACTIONS) {
      for (const key of [...builtin.keysFor(action), ...(UNBOUND_RESERVED_KEYS[action] ?? [])]) if (!reserved.has(key)) reserved.set(key, action);
    }
    const byKey = new Map<string, RegisteredShortcut<Ctx>>();
    const diagnostics: ShortcutDiagnostic[] = [];
    const warn = (message: string, extensionPath: string) => diagnostics.push({ type: "warning", message, extensionPath });
    for (const entry of this.entries) {
      const { key, extensionPath } = entry;
      const normalized = normalize(key);
      if ("error" in normalized) {
        warn(`Extension shortcut ${normalized.error} from ${extensionPath}. Skipping.`, extensionPath);
        continue;
      }
      const id = normalized.key;
      const reservedBy = reserved.get(id);
      if (reservedBy) {
        warn(`Extension shortcut '${key}' from ${extensionPath} conflicts with built-in shortcut (${reservedBy}). Skipping.`, extensionPath);
        continue;
      }
      const action = builtin.actionFor(id);
      if (action) warn(`Extension shortcut conflict: '${key}' is built-in shortcut for ${action} and ${extensionPath}. Using ${extensionPath}.`, extensionPath);
      const previous = byKey.get(id);
      if (previous) warn(`Extension shortcut conflict: '${key}' registered by both ${previous.extensionPath} and ${extensionPath}. Using ${extensionPath}.`, extensionPath);
      byKey.set(id, { ...entry, key: id });
    }
    return { forKey: (key) => byKey.get(key), list: () => [...byKey.values()], diagnostics };
  }
}
