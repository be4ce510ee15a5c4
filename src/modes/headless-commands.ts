/**
 * Print and JSON mode: a prompt that invokes an extension command runs it (with the headless
 * UI: no dialogs, defaults) instead of going to the model. The mode binds the UI once.
 */
import { runCommandIfAny, type CommandFailure } from "../extensions/commands.ts";
import { commandContextFor, type ModeExtensions } from "../extensions/registries.ts";
import { HEADLESS_UI } from "../extensions/ui.ts";
import type { PromptInput } from "./prompt-input.ts";

export function bindHeadlessUi(extensions: ModeExtensions | undefined): void {
  extensions?.bindUi?.(HEADLESS_UI);
}

/** True when `prompt` was an extension command (it has run); false when it is for the model. */
export function runHeadlessCommand(extensions: ModeExtensions | undefined, prompt: PromptInput, onError: (failure: CommandFailure) => void): Promise<boolean> {
  if (!extensions || prompt.images.length > 0) return Promise.resolve(false);
  return runCommandIfAny(extensions.registries.commands, prompt.text, commandContextFor(extensions, HEADLESS_UI), onError);
}
