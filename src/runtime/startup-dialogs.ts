/**
 * Dialogs for extensions before any mode is up — the project trust question, asked while pig
 * starts in a terminal. Plain @clack/prompts on stdin/stdout, loaded on demand; a cancelled
 * dialog answers undefined (false for a confirmation). Nothing is drawn but the dialogs and
 * notices; status lines and widgets wait for the mode. What an extension shows is made
 * terminal-safe (util/terminal-safe.ts), as in the modes' own dialogs.
 */
import type { ExtensionUI } from "../extensions/ui.ts";
import { HEADLESS_UI } from "../extensions/ui.ts";
import { writeStderr } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";

export function startupDialogs(): ExtensionUI {
  const clack = () => import("@clack/prompts");
  return {
    ...HEADLESS_UI,
    hasUI: true,
    async select(title, options) {
      if (options.length === 0) return undefined;
      const { select, isCancel } = await clack();
      const answer = await select({ message: terminalSafe(title), options: options.map((value) => ({ value, label: terminalSafe(value) })) });
      return isCancel(answer) ? undefined : (answer as string);
    },
    async confirm(title, message) {
      const { confirm, isCancel } = await clack();
      const answer = await confirm({ message: terminalSafe(message ? `${title}\n${message}` : title) });
      return isCancel(answer) ? false : answer === true;
    },
    async input(title, placeholder) {
      const { text, isCancel } = await clack();
      const answer = await text({ message: terminalSafe(title), ...(placeholder ? { placeholder: terminalSafe(placeholder) } : {}) });
      return isCancel(answer) ? undefined : String(answer);
    },
    async editor(title, prefill) {
      const { text, isCancel } = await clack();
      const answer = await text({ message: terminalSafe(title), ...(prefill ? { initialValue: terminalSafe(prefill) } : {}) });
      return isCancel(answer) ? undefined : String(answer);
    },
    notify(message, type) {
      writeStderr(`${type === "error" ? "Error: " : type === "warning" ? "Warning: " : ""}${message}\n`);
    },
  };
}
