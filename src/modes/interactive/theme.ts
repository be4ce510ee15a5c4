/**
 * Colours of the interactive mode: built-in `dark` and `light`, or a theme file in upstream's
 * format (`{name, vars?, colors: {<token>: "#rrggbb" | 0-255 | "<var>" | ""}}`) found by the
 * resource resolution (`~/.pig/agent/themes/`, a trusted `.pig/themes/`, `themes` settings,
 * `--theme`). Without colour (NO_COLOR, not a terminal) every token is plain text.
 */
import { basename } from "node:path";
import * as v from "valibot";
import { checkConfig, joinIssues } from "../../util/config-issues.ts";
import { readConfigText } from "../../util/config-read.ts";
import { parseJsonc } from "../../util/jsonc.ts";
import { isPlainObject } from "../../util/plain-object.ts";

export const THEME_TOKENS = [
  "accent", "border", "borderAccent", "borderMuted", "success", "error", "warning", "muted", "dim", "text", "thinkingText",
  "selectedBg", "userMessageBg", "userMessageText", "customMessageBg", "customMessageText", "customMessageLabel",
  "toolPendingBg", "toolSuccessBg", "toolErrorBg", "toolTitle", "toolOutput", "mdHeading", "mdLink", "mdLinkUrl", "mdCode",
  "mdCodeBlock", "mdCodeBlockBorder", "mdQuote", "mdQuoteBorder", "mdHr", "mdListBullet", "toolDiffAdded", "toolDiffRemoved",
  "toolDiffContext", "syntaxComment", "syntaxKeyword", "syntaxFunction", "syntaxVariable", "syntaxString", "syntaxNumber",
  "syntaxType", "syntaxOperator", "syntaxPunctuation", "thinkingOff", "thinkingMinimal", "thinkingLow", "thinkingMedium",
  "thinkingHigh", "thinkingXhigh", "bashMode",
] as const;
export type ThemeToken = (typeof THEME_TOKENS)[number];

/** Tokens of newer upstream themes that pig has no use for: accepted, so shared files read without warnings. */
const UPSTREAM_ONLY_TOKENS = [
  "statusLineBg", "statusLineSep", "statusLineModel", "statusLinePath", "statusLineGitClean", "statusLineGitDirty",
  "statusLineContext", "statusLineSpend", "statusLineStaged", "statusLineDirty", "statusLineUntracked", "statusLineOutput",
  "statusLineCost", "statusLineSubagents",
] as const;

const ColorValue = v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))]);
const colorEntries = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, v.optional(ColorValue)]));
const ThemeFileSchema = v.looseObject({
  $schema: v.optional(v.string()),
  name: v.string(),
  vars: v.optional(v.record(v.string(), ColorValue)),
  colors: v.looseObject(colorEntries([...THEME_TOKENS, ...UPSTREAM_ONLY_TOKENS])),
  /** Upstream's HTML export colours; pig's export has its own. */
  export: v.optional(v.looseObject(colorEntries(["pageBg", "cardBg", "infoBg"]))),
});

export interface Theme {
  readonly name: string;
  readonly color: boolean;
  fg(token: ThemeToken, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
}

type Palette = Partial<Record<ThemeToken, string | number>>;

const DARK: Palette = {
  accent: "#8abeb7", border: "#5f87af", borderAccent: "#00d7ff", borderMuted: "#505050", success: "#b5bd68", error: "#cc6666",
  warning: "#f0c674", muted: "#909090", dim: "#686868", text: "", thinkingText: "#808080", toolTitle: "#81a2be", toolOutput: "#b0b0b0",
  mdHeading: "#f0c674", mdLink: "#81a2be", mdLinkUrl: "#686868", mdCode: "#8abeb7", mdCodeBlock: "#b5bd68", mdCodeBlockBorder: "#686868",
  mdQuote: "#909090", mdQuoteBorder: "#686868", mdHr: "#686868", mdListBullet: "#8abeb7", toolDiffAdded: "#b5bd68",
  toolDiffRemoved: "#cc6666", toolDiffContext: "#808080", thinkingOff: "#505050", thinkingMinimal: "#6e6e6e", thinkingLow: "#5f87af",
  thinkingMedium: "#81a2be", thinkingHigh: "#b294bb", thinkingXhigh: "#d183e8", bashMode: "#b5bd68", customMessageLabel: "#b294bb",
};

const LIGHT: Palette = {
  accent: "#005f87", border: "#5f87af", borderAccent: "#0087af", borderMuted: "#b0b0b0", success: "#3a7a00", error: "#af0000",
  warning: "#875f00", muted: "#6c6c6c", dim: "#8a8a8a", text: "", thinkingText: "#6c6c6c", toolTitle: "#005f87", toolOutput: "#444444",
  mdHeading: "#875f00", mdLink: "#005f87", mdLinkUrl: "#8a8a8a", mdCode: "#005f5f", mdCodeBlock: "#3a5f00", mdCodeBlockBorder: "#8a8a8a",
  mdQuote: "#6c6c6c", mdQuoteBorder: "#8a8a8a", mdHr: "#8a8a8a", mdListBullet: "#005f87", toolDiffAdded: "#3a7a00",
  toolDiffRemoved: "#af0000", toolDiffContext: "#6c6c6c", thinkingOff: "#b0b0b0", thinkingMinimal: "#8a8a8a", thinkingLow: "#5f87af",
  thinkingMedium: "#005f87", thinkingHigh: "#5f00af", thinkingXhigh: "#8700af", bashMode: "#3a7a00", customMessageLabel: "#5f00af",
};

function sgr(value: string | number | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value === "number") return `38;5;${value}`;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (!hex) return undefined;
  return `38;2;${Number.parseInt(hex[1]!, 16)};${Number.parseInt(hex[2]!, 16)};${Number.parseInt(hex[3]!, 16)}`;
}

function makeTheme(name: string, palette: Palette, color: boolean): Theme {
  const wrap = (code: string | undefined, text: string, end = 39) => (color && code ? `\x1b[${code}m${text}\x1b[${end}m` : text);
  return {
    name,
    color,
    fg: (token, text) => wrap(sgr(palette[token]), text),
    bold: (text) => wrap("1", text, 22),
    italic: (text) => wrap("3", text, 23),
    underline: (text) => wrap("4", text, 24),
  };
}

/** Resolves `vars` references in a theme file's colours. */
function paletteOf(file: v.InferOutput<typeof ThemeFileSchema>): Palette {
  const out: Palette = {};
  const colors: Record<string, unknown> = file.colors;
  for (const token of THEME_TOKENS) {
    let value = colors[token] as string | number | undefined;
    if (typeof value === "string" && value && !value.startsWith("#")) value = file.vars?.[value] ?? value;
    if (value !== undefined) out[token] = value;
  }
  return out;
}

export interface ThemeChoice {
  theme: Theme;
  /** Why the file could not be used, or keys in it pig does not know; each names the file. */
  warnings: string[];
  /** The theme file it came from (none for the built-ins). */
  path?: string;
  /** The theme asked for could not be used: `theme` is the dark fallback. */
  failed?: true;
}

/** A theme file read once: the name it goes by, and its JSON or why it could not be read. */
interface ThemeFileRead {
  path: string;
  name: string;
  text?: string;
  json?: unknown;
  error?: string;
}

function readThemeFile(path: string): ThemeFileRead {
  const fileName = basename(path, ".json");
  const read = readConfigText(path);
  // Unreadable or not JSON: known by its file name; loading it reports the problem.
  if (read.kind !== "text") return { path, name: fileName, error: read.kind === "absent" ? "does not exist" : read.reason };
  try {
    const json: unknown = parseJsonc(read.text);
    const name = typeof json === "object" && json !== null ? (json as { name?: unknown }).name : undefined;
    return { path, name: typeof name === "string" && name.trim() ? name : fileName, text: read.text, json };
  } catch (error) {
    return { path, name: fileName, error: `not valid JSON: ${(error as Error).message}` };
  }
}

/** The name a theme file goes by: its `name` field, else its file name without `.json`. */
export function themeFileName(path: string): string {
  return readThemeFile(path).name;
}

/** The built-in names, then each theme file's name (the first file of a name wins). */
export function themeNames(files: readonly string[]): string[] {
  const names = ["dark", "light"];
  for (const path of files) {
    const name = themeFileName(path);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The theme named `name`: a built-in, or the first of `files` (theme files in precedence
 * order) going by that name. Falls back to `dark` with a warning naming the file at fault.
 * Each file is read at most once.
 */
export function loadTheme(name: string | undefined, files: readonly string[], color: boolean): ThemeChoice {
  const wanted = name ?? "dark";
  if (wanted === "dark") return { theme: makeTheme("dark", DARK, color), warnings: [] };
  if (wanted === "light") return { theme: makeTheme("light", LIGHT, color), warnings: [] };
  // By `name` field first; a file name still works (older settings saved those).
  const read: ThemeFileRead[] = [];
  let found: ThemeFileRead | undefined;
  const dark = (...warnings: string[]): ThemeChoice => ({ theme: makeTheme("dark", DARK, color), warnings, failed: true, ...(found ? { path: found.path } : {}) });
  for (const path of files) {
    const file = readThemeFile(path);
    read.push(file);
    if (file.name === wanted) {
      found = file;
      break;
    }
  }
  found ??= read.find((file) => basename(file.path, ".json") === wanted);
  if (!found) return dark(`Theme "${wanted}" not found; using the dark theme`);
  if (found.error !== undefined || found.text === undefined) return dark(`${found.path}: ${found.error}; using the dark theme`);
  const text = found.text;
  if (!isPlainObject(found.json)) {
    return dark(`${found.path}: expected a JSON object ({"name": …, "colors": {…}}) at the top level; using the dark theme`);
  }
  const checked = checkConfig(ThemeFileSchema, found.json, text);
  const unknown = checked.unknownKeys.map((words) => `${found.path}: ${words}; ignored`);
  if (!checked.success) return dark(`${found.path}: ${joinIssues(checked.issues)}; using the dark theme`, ...unknown);
  return { theme: makeTheme(checked.output.name, paletteOf(checked.output), color), warnings: unknown, path: found.path };
}

/**
 * The built-in theme for a terminal when no theme is set: `light` when `COLORFGBG` (set by
 * rxvt, Konsole, iTerm2 and others as "fg;bg") names a light background (7 or 15), else `dark`.
 */
export function detectThemeName(env: NodeJS.ProcessEnv = process.env): "dark" | "light" {
  const background = env.COLORFGBG?.split(";").at(-1)?.trim();
  return background === "7" || background === "15" ? "light" : "dark";
}

/** Whether output should be coloured: a terminal, and NO_COLOR unset. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}
