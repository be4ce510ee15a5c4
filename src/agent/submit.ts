/**
 * The one way input reaches the agent, whoever typed it (interactive, RPC, print, SDK, an
 * extension): a registered command runs instead of a prompt; otherwise the input hook may pass
 * it on, rewrite it or take it over; then `/skill:name` and prompt templates are expanded, and
 * the result is the prompt of a new run, or — while one runs — a steer or a follow-up.
 */
import type { UserMessage } from "../session/format.ts";
import { PromptError } from "./errors.ts";
import type { CommandPort } from "./command-port.ts";
import { NO_HOOKS, type AgentHooks, type HookImage, type InputHookResult, type InputSource } from "./hooks.ts";
import { withImageHints, type PreparedImages } from "./prompt-images.ts";
import { userMessage } from "./queue.ts";

export interface SubmitOptions {
  source: InputSource;
  images?: HookImage[];
  /** Where input goes while a run is going; without one, input then is refused. */
  streamingBehavior?: "steer" | "followUp";
  /** What the user typed, when `text` holds more (piped stdin): the session's title is made of it. */
  typedText?: string;
  /**
   * Sent as it is: no command, no expansion (the editor's `//name` escape, an extension's
   * `sendUserMessage`); the input hook still sees it.
   */
  literal?: boolean;
  /** Put before the expanded text (files attached by `@path` mentions). */
  prefix?: string;
  /** What a queue shows of this input (default: `text`). */
  queuedAs?: string;
  /**
   * Told once the input has gone where it goes: taken by a command or a hook (`handled`), queued,
   * or a run started. Not told when the input is refused (the returned promise rejects instead).
   */
  onAccepted?: (disposition: InputDisposition) => void;
}

/** Where an input went (upstream 1.x's RPC `disposition`). */
export type InputDisposition = "handled" | "queued" | "started";

/** What the funnel needs of the session. */
export interface SubmitHost {
  readonly commands: CommandPort;
  readonly hooks: AgentHooks;
  readonly isStreaming: boolean;
  expand(text: string): string;
  reportExtensionError(error: { extensionPath: string; event: string; error: string }): void;
  enqueue(kind: "steer" | "followUp", shown: string, message: UserMessage): void;
  /** Starts a run on `message` (the before-agent-start hook has its say first); resolves when the run is over. */
  startPrompt(message: UserMessage, expanded: string, images: HookImage[] | undefined, accepted: () => void): Promise<void>;
  /** Makes the input's images fit to send (prompt-images.ts); without it they go as given. */
  prepareImages?(images: readonly HookImage[]): Promise<PreparedImages>;
  /** Runs a pre-run hook under a signal an abort fires (no run exists to stop yet). */
  duringPrompt?<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export async function submitInput(host: SubmitHost, text: string, options: SubmitOptions): Promise<void> {
  let accepted = false;
  const accept = (disposition: InputDisposition): void => {
    if (accepted) return;
    accepted = true;
    options.onAccepted?.(disposition);
  };
  const command = options.literal ? undefined : host.commands.match(text);
  if (command) {
    accept("handled");
    try {
      await command({ source: options.source });
    } catch (error) {
      host.reportExtensionError({ extensionPath: "", event: "command", error: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  // The title is made of what was typed, not of what a hook made of it.
  const typed = options.typedText ?? text;
  // Without hooks nothing is awaited before the run starts: an abort read right after the
  // prompt (an RPC abort in the same stdin chunk) must find the run to stop.
  const hooked = host.hooks === NO_HOOKS ? { text, images: options.images } : await inputHook(host, text, options.images, options.source, options.streamingBehavior, host.duringPrompt);
  if (hooked === "handled") {
    accept("handled");
    return;
  }
  text = hooked.text;
  // Only input with images waits here: without, the run still starts in this tick.
  const fitting = fitImages(host, hooked.images);
  const { images, hints } = fitting instanceof Promise ? await fitting : fitting;
  const expanded = withImageHints(`${options.prefix ?? ""}${options.literal ? text : host.expand(text)}`, hints);
  const message = userMessage(expanded, images, typed);
  if (host.isStreaming) {
    if (!options.streamingBehavior) {
      throw new PromptError("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
    }
    host.enqueue(options.streamingBehavior, options.queuedAs ?? text, message);
    accept("queued");
    return;
  }
  await host.startPrompt(message, expanded, images, () => accept("started"));
}

/**
 * Asks the input hook about `text` (upstream's `input` event): `"handled"` when a handler took it
 * (or an abort came while it decided: the input is dropped, as a run aborted at once would be),
 * else the text and images to go on with, as given or rewritten. `streamingBehavior` reaches the
 * hook only while a run goes on. `during`: the signal an abort fires, when there is one.
 */
async function inputHook(
  host: SubmitHost,
  text: string,
  images: HookImage[] | undefined,
  source: InputSource,
  streamingBehavior: "steer" | "followUp" | undefined,
  during: SubmitHost["duringPrompt"],
): Promise<"handled" | { text: string; images: HookImage[] | undefined }> {
  let aborted = false;
  const event = { text, ...(images ? { images } : {}), source, ...(host.isStreaming && streamingBehavior ? { streamingBehavior } : {}) };
  const hooked: InputHookResult = await (during ?? ((body) => body(new AbortController().signal)))(async (signal) => {
    const result = await host.hooks.input(event, signal);
    aborted = signal.aborted;
    return result;
  });
  if (aborted || hooked.action === "handled") return "handled";
  if (hooked.action === "transform") return { text: hooked.text, images: hooked.images ?? images };
  return { text, images };
}

/**
 * A steer or a follow-up asked for as such (RPC `steer`/`follow_up`), as upstream queues it: the
 * input hook has its say (a handler may take it or rewrite it), then it is expanded and queued,
 * while a run goes on or not (idle, it goes with the next run, right after its prompt).
 */
export async function queueInput(
  host: SubmitHost,
  kind: "steer" | "followUp",
  text: string,
  options: { source: InputSource; images?: HookImage[] },
): Promise<Exclude<InputDisposition, "started">> {
  const hooked = await inputHook(host, text, options.images, options.source, kind, undefined);
  if (hooked === "handled") return "handled";
  const { images, hints } = await fitImages(host, hooked.images);
  host.enqueue(kind, hooked.text, userMessage(withImageHints(host.expand(hooked.text), hints), images, hooked.text));
  return "queued";
}

type Fitted = { images: HookImage[] | undefined; hints: string[] };

/** The images made fit to send; a promise only when there are images to look at. */
function fitImages(host: SubmitHost, images: HookImage[] | undefined): Fitted | Promise<Fitted> {
  if (!images || images.length === 0 || !host.prepareImages) return { images, hints: [] };
  return host.prepareImages(images);
}
