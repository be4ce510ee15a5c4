/**
 * One Piglet as pig uses it, wherever it came from: a user's or a trusted project's file
 * (piglets.ts reads those) or the data a Piglet Binary carries (built-in-piglets.ts).
 */
import type { THINKING_LEVELS } from "../session/format.ts";

/** `built-in`: carried inside a Piglet Binary (built-in-piglets.ts). */
export type PigletScope = "user" | "project" | "built-in";

export interface Piglet {
  name: string;
  description: string;
  filePath: string;
  scope: PigletScope;
  model?: string;
  thinking?: (typeof THINKING_LEVELS)[number];
  tools?: string[];
  /** Absolute paths (written relative to the Piglet's file). */
  extensions?: string[];
  skills?: string[];
  prompts?: string[];
  /** Replaces pig's system prompt. */
  system?: string;
  /** Appended to the system prompt. */
  appendSystem?: string;
}
