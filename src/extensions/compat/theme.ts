/**
 * Stand-ins for Pi's TUI theme: pig's line UI draws plain text, so every styling call returns
 * the text unchanged. Unknown methods (themes grow) answer the same way instead of throwing.
 */
import type { ThemeLike } from "../api/types.ts";

const identity = (text: unknown): string => String(text ?? "");

const base: ThemeLike = {
  fg: (_color, text) => identity(text),
  bg: (_color, text) => identity(text),
  bold: identity,
  italic: identity,
  underline: identity,
  strikethrough: identity,
  inverse: identity,
  dim: identity,
  getFgAnsi: () => "",
  getBgAnsi: () => "",
  getColorMode: () => "truecolor",
  getThinkingBorderColor: () => identity,
  getBashModeBorderColor: () => identity,
};

export const plainTheme: ThemeLike = new Proxy(base, {
  get(target, key) {
    if (key in target || typeof key === "symbol") return target[key as string];
    // A style Pi added later: still text in, text out (the last argument is the text).
    return (...args: unknown[]) => identity(args[args.length - 1]);
  },
});

/** Pi's `Theme` class, for extensions that construct or test against one. */
export interface ThemeStub extends ThemeLike {}
export class ThemeStub {
  constructor(..._args: unknown[]) {
    return plainTheme as unknown as ThemeStub;
  }
}

export function getMarkdownTheme(): Record<string, (text: string) => string> {
  return new Proxy({}, { get: () => identity }) as Record<string, (text: string) => string>;
}

export function getSelectListTheme(): Record<string, (text: string) => string> {
  return getMarkdownTheme();
}

export function getSettingsListTheme(): Record<string, (text: string) => string> {
  return getMarkdownTheme();
}

export function initTheme(): void {}
