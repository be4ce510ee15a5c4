/**
 * The host's dialogs (pick, confirm, ask) on top of @clack/prompts. A cancelled dialog (Escape,
 * Ctrl+C) answers undefined, or false for a confirmation, never throws. The caller suspends
 * the prompt editor around them: these take the terminal while they are open. A closed dialog
 * leaves one line saying what was chosen ("◇ Model · fake/fake-reasoner", "■ Model · cancelled")
 * where its frame was.
 *
 * Every text a dialog shows is made terminal-safe here (util/terminal-safe.ts), pig's colours
 * kept: a question or an option written by a model or an extension cannot erase or move what
 * the dialog draws (a command approved must be the command shown).
 */
import { autocomplete, autocompleteMultiselect, confirm, isCancel, password, select, text } from "@clack/prompts";
import pc from "picocolors";
import type { Readable } from "node:stream";
import { DialogFrame, type DialogTerminal } from "./dialog-frame.ts";
import { stripAnsi } from "../../util/width.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";
import type { AskConfig, PickOption } from "./host.ts";

export type { AskConfig };

export interface DialogStreams {
  input?: Readable;
  output?: DialogTerminal;
}

/** The line a closed dialog leaves: its question and the answer, or that it was cancelled. */
export function closedDialogLine(message: string, answer: string | undefined, closedAs?: string): string {
  const question = oneLine(message);
  if (answer === undefined && closedAs !== undefined) return `${pc.dim("◇")} ${question} ${pc.dim(`· ${closedAs}`)}`;
  if (answer === undefined) return `${pc.red("■")} ${question} ${pc.dim("· cancelled")}`;
  return `${pc.green("◇")} ${question} ${pc.dim("·")} ${oneLine(answer)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** What a chosen set of options is called on the closed dialog's line. */
function chosenLabels(labels: readonly string[]): string {
  return labels.length === 0 ? "none" : labels.join(", ");
}

const MAX_ITEMS = 12;

/** Every word typed occurs in the option's label or hint (case-insensitive). */
export function optionMatches(search: string, option: { label?: string; hint?: string }): boolean {
  // Colour codes in a label (dimmed entries) are not text to match.
  const haystack = stripAnsi(`${option.label ?? ""} ${option.hint ?? ""}`).toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}


/** A dialog whose signal aborts closes as cancelled. */
export interface Dialogs {
  pick<T>(message: string, options: PickOption<T>[], config?: { search?: boolean; initial?: T; signal?: AbortSignal }): Promise<T | undefined>;
  /** Several options (Space toggles, type to filter, Enter accepts); undefined when cancelled. */
  pickMany<T>(message: string, options: PickOption<T>[], initial: readonly T[]): Promise<T[] | undefined>;
  confirm(message: string, initial?: boolean, signal?: AbortSignal): Promise<boolean>;
  /**
   * `abortedAs`: what the closed line says when `signal` closed the question (it was no longer
   * needed); `answeredAs`: what it says instead of the answer (one not worth keeping on screen).
   */
  ask(message: string, config?: AskConfig): Promise<string | undefined>;
}

/** A dialog's text as shown: pig's colours kept, anything else that would act on the terminal shown. */
function shown(text: string): string {
  return terminalSafe(text, { styled: true, tabs: "show" });
}

function shownOptions<T>(options: PickOption<T>[]): { value: number; label: string; hint?: string }[] {
  return options.map((option, index) => ({ value: index, label: shown(option.label), ...(option.hint ? { hint: shown(option.hint) } : {}) }));
}

/**
 * The caller's signal as the prompt sees it, cut off once the prompt has closed: clack keeps
 * listening to a signal after its prompt is done, and a late abort would then switch the
 * terminal out of raw mode under the prompt editor that has taken it back.
 */
function whileOpen(signal: AbortSignal | undefined): { signal: AbortSignal | undefined; close(): void } {
  if (!signal) return { signal: undefined, close: () => {} };
  const inner = new AbortController();
  const forward = (): void => inner.abort();
  if (signal.aborted) inner.abort();
  else signal.addEventListener("abort", forward, { once: true });
  return { signal: inner.signal, close: () => signal.removeEventListener("abort", forward) };
}

export function createDialogs(streams: DialogStreams = {}): Dialogs {
  const input = streams.input ? { input: streams.input } : {};
  /**
   * Runs a clack prompt drawing into a frame of its own, then replaces the frame with one line:
   * `words(answer)`, or "cancelled". Undefined when cancelled.
   */
  async function framed<T>(
    question: string,
    run: (output: DialogFrame, message: string, signal: AbortSignal | undefined) => Promise<T | symbol>,
    words: (answer: T) => string,
    closed?: { signal: AbortSignal | undefined; as: string | undefined },
  ): Promise<{ answer: T } | undefined> {
    const message = shown(question);
    const frame = new DialogFrame(streams.output ?? process.stdout);
    const open = whileOpen(closed?.signal);
    let answer: T | symbol;
    try {
      answer = await run(frame, message, open.signal);
    } catch (error) {
      frame.release();
      throw error;
    } finally {
      open.close();
    }
    const chosen = isCancel(answer) ? undefined : { answer: answer as T };
    const closedAs = !chosen && closed?.signal?.aborted && closed.as !== undefined ? shown(closed.as) : undefined;
    frame.replaceWith(closedDialogLine(message, chosen && shown(words(chosen.answer)), closedAs));
    return chosen;
  }
  return {
    async pick(message, options, config = {}) {
      if (options.length === 0) return undefined;
      // Options carry their index, not the value: values can be any object, which clack's
      // option typing (and its default value-to-label conversion) does not expect.
      const items = shownOptions(options);
      const initial = config.initial === undefined ? -1 : options.findIndex((option) => option.value === config.initial);
      const common = { ...input, options: items, maxItems: MAX_ITEMS, ...(initial >= 0 ? { initialValue: initial } : {}) };
      const chosen = await framed<number>(
        message,
        (output, message, signal) => {
          const prompt = { ...common, message, output, ...(signal ? { signal } : {}) };
          return config.search ? autocomplete<number>({ ...prompt, filter: optionMatches }) : select<number>(prompt);
        },
        (index: number) => options[index]?.label ?? "",
        { signal: config.signal, as: undefined },
      );
      return chosen && options[chosen.answer]?.value;
    },
    async pickMany(message, options, initial) {
      if (options.length === 0) return [];
      const items = shownOptions(options);
      const initialValues = options.flatMap((option, index) => (initial.includes(option.value) ? [index] : []));
      const chosen = await framed<number[]>(
        message,
        (output, message) =>
          autocompleteMultiselect<number>({ ...input, output, message, options: items, initialValues, required: false, maxItems: MAX_ITEMS, filter: optionMatches }),
        (indexes: number[]) => chosenLabels(indexes.map((index) => options[index]!.label)),
      );
      return chosen?.answer.map((index) => options[index]!.value);
    },
    async confirm(message, initial, signal) {
      const chosen = await framed<boolean>(
        message,
        (output, message, open) => confirm({ ...input, output, message, ...(initial !== undefined ? { initialValue: initial } : {}), ...(open ? { signal: open } : {}) }),
        (yes: boolean) => (yes ? "Yes" : "No"),
        { signal, as: undefined },
      );
      return chosen?.answer === true;
    },
    async ask(message, config = {}) {
      const chosen = await framed<string | undefined>(
        message,
        (output, message, signal) =>
          config.mask
            ? password({ ...input, output, message, ...(signal ? { signal } : {}) })
            : text({
                ...input,
                output,
                message,
                ...(signal ? { signal } : {}),
                ...(config.placeholder ? { placeholder: shown(config.placeholder) } : {}),
                ...(config.initial !== undefined ? { initialValue: terminalSafe(config.initial, { tabs: "show" }) } : {}),
              }),
        // A key typed into a masked question is never shown again; that none was typed may be.
        (typed: string | undefined) => (config.mask ? (typed ? "entered" : "none") : config.answeredAs !== undefined ? config.answeredAs : typed ? typed : "(empty)"),
        { signal: config.signal, as: config.abortedAs },
      );
      return chosen && (chosen.answer ?? "");
    },
  };
}

const terminal = createDialogs();

export const pickDialog: Dialogs["pick"] = (message, options, config) => terminal.pick(message, options, config);
export const pickManyDialog: Dialogs["pickMany"] = (message, options, initial) => terminal.pickMany(message, options, initial);
export const confirmDialog: Dialogs["confirm"] = (message, initial, signal) => terminal.confirm(message, initial, signal);
export const askDialog: Dialogs["ask"] = (message, config) => terminal.ask(message, config);
