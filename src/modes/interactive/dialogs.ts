/**
 * The host's dialogs (pick, confirm, ask) on top of @clack/prompts. A cancelled dialog (Escape,
 * Ctrl+C) answers undefined, or false for a confirmation, never throws. The caller suspends
 * the prompt editor around them: these take the terminal while they are open.
 */
import { autocomplete, autocompleteMultiselect, confirm, isCancel, password, select, text } from "@clack/prompts";
import type { Readable, Writable } from "node:stream";
import type { PickOption } from "./host.ts";

export interface DialogStreams {
  input?: Readable;
  output?: Writable;
}

const MAX_ITEMS = 12;

/** Every word typed occurs in the option's label or hint (case-insensitive). */
export function optionMatches(search: string, option: { label?: string; hint?: string }): boolean {
  const haystack = `${option.label ?? ""} ${option.hint ?? ""}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export interface Dialogs {
  pick<T>(message: string, options: PickOption<T>[], config?: { search?: boolean; initial?: T }): Promise<T | undefined>;
  /** Several options (Space toggles, type to filter, Enter accepts); undefined when cancelled. */
  pickMany<T>(message: string, options: PickOption<T>[], initial: readonly T[]): Promise<T[] | undefined>;
  confirm(message: string, initial?: boolean): Promise<boolean>;
  ask(message: string, config?: { placeholder?: string; initial?: string; mask?: boolean }): Promise<string | undefined>;
}

export function createDialogs(streams: DialogStreams = {}): Dialogs {
  const io = { ...(streams.input ? { input: streams.input } : {}), ...(streams.output ? { output: streams.output } : {}) };
  return {
    async pick(message, options, config = {}) {
      if (options.length === 0) return undefined;
      // Options carry their index, not the value: values can be any object, which clack's
      // option typing (and its default value-to-label conversion) does not expect.
      const items = options.map((option, index) => ({ value: index, label: option.label, ...(option.hint ? { hint: option.hint } : {}) }));
      const initial = config.initial === undefined ? -1 : options.findIndex((option) => option.value === config.initial);
      const common = { ...io, message, options: items, maxItems: MAX_ITEMS, ...(initial >= 0 ? { initialValue: initial } : {}) };
      const answer = config.search ? await autocomplete<number>({ ...common, filter: optionMatches }) : await select<number>(common);
      if (isCancel(answer)) return undefined;
      return options[answer]?.value;
    },
    async pickMany(message, options, initial) {
      if (options.length === 0) return [];
      const items = options.map((option, index) => ({ value: index, label: option.label, ...(option.hint ? { hint: option.hint } : {}) }));
      const initialValues = options.flatMap((option, index) => (initial.includes(option.value) ? [index] : []));
      const answer = await autocompleteMultiselect<number>({
        ...io,
        message,
        options: items,
        initialValues,
        required: false,
        maxItems: MAX_ITEMS,
        filter: optionMatches,
      });
      if (isCancel(answer)) return undefined;
      return answer.map((index) => options[index]!.value);
    },
    async confirm(message, initial) {
      const answer = await confirm({ ...io, message, ...(initial !== undefined ? { initialValue: initial } : {}) });
      return !isCancel(answer) && answer;
    },
    async ask(message, config = {}) {
      const answer = config.mask
        ? await password({ ...io, message })
        : await text({
            ...io,
            message,
            ...(config.placeholder ? { placeholder: config.placeholder } : {}),
            ...(config.initial !== undefined ? { initialValue: config.initial } : {}),
          });
      if (isCancel(answer)) return undefined;
      return answer ?? "";
    },
  };
}

const terminal = createDialogs();

export const pickDialog: Dialogs["pick"] = (message, options, config) => terminal.pick(message, options, config);
export const pickManyDialog: Dialogs["pickMany"] = (message, options, initial) => terminal.pickMany(message, options, initial);
export const confirmDialog: Dialogs["confirm"] = (message, initial) => terminal.confirm(message, initial);
export const askDialog: Dialogs["ask"] = (message, config) => terminal.ask(message, config);
