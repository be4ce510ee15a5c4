/**
 * How the agent finds commands that something outside it registered (extension commands): the
 * input funnel asks the port before anything else, and a match runs instead of a prompt, even
 * while the agent is busy. The agent does not know the commands; the registry behind the port
 * decides what `/name args` means and builds whatever context its handlers get.
 */
import type { InputSource } from "./hooks.ts";

/** What the funnel tells a command it runs. */
export interface CommandInvocation {
  source: InputSource;
}

export type CommandRun = (invocation: CommandInvocation) => Promise<void>;

export interface CommandPort {
  /** The command `text` invokes (`/name args`), or undefined when it invokes none. */
  match(text: string): CommandRun | undefined;
}

export const NO_COMMANDS: CommandPort = { match: () => undefined };
