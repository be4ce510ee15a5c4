/**
 * `@earendil-works/pi-coding-agent` (and `@mariozechner/…`) as Pi extensions import it: the
 * helpers they really call, backed by pig's own implementations where pig has one.
 */
import { convertToLlm as pigConvertToLlm } from "../../session/convert.ts";
import { serializeConversation as pigSerialize } from "../../compaction/serialize.ts";
import { parseFrontmatter as pigParseFrontmatter, splitFrontmatter } from "../../resources/frontmatter.ts";
import { agentDir } from "../../session/paths.ts";
import { withFileMutationQueue } from "../../tools/mutation-queue.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateLine, truncateTail } from "../../tools/truncate.ts";
import { VERSION } from "../../version.ts";
import type { EventBus } from "../api/types.ts";
import { LocalBus } from "../runner/bus.ts";
import { getMarkdownTheme, getSelectListTheme, getSettingsListTheme, initTheme, ThemeStub } from "./theme.ts";
import { Container, Editor, Loader } from "./tui.ts";

export * from "./tools.ts";
export { copyToClipboard } from "./clipboard.ts";
export { formatReadLineRange } from "./line-range.ts";
export { getLanguageFromPath, highlightCode } from "./highlight.ts";
export { convertToPng, detectSupportedImageMimeTypeFromFile, formatDimensionNote, resizeImage } from "./images.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateLine, truncateTail, withFileMutationQueue, VERSION };
export { getMarkdownTheme, getSelectListTheme, getSettingsListTheme, initTheme, ThemeStub as Theme };

export const CONFIG_DIR_NAME = ".pig";

export function getAgentDir(): string {
  return agentDir();
}

/** Keeps the parameter types of a tool definition (upstream's identity helper). */
export function defineTool<T>(tool: T): T {
  return tool;
}

type ToolEvent = { toolName?: string };

export function isToolCallEventType(toolName: string, event: ToolEvent): boolean {
  return event?.toolName === toolName;
}

const resultOf = (name: string) => (event: ToolEvent) => event?.toolName === name;
export const isBashToolResult = resultOf("bash");
export const isReadToolResult = resultOf("read");
export const isEditToolResult = resultOf("edit");
export const isWriteToolResult = resultOf("write");
export const isGrepToolResult = resultOf("grep");
export const isFindToolResult = resultOf("find");
export const isLsToolResult = resultOf("ls");

// Key hints: pig's line UI prints them plainly.
export function keyText(key: string): string {
  return key;
}
export function keyHint(key: string, description?: string): string {
  return description ? `${key} ${description}` : key;
}
export const rawKeyHint = keyHint;

export function serializeConversation(messages: unknown[]): string {
  return pigSerialize(messages as never);
}

export function convertToLlm(messages: unknown[]): unknown[] {
  return pigConvertToLlm(messages as never);
}

export function parseFrontmatter<T extends Record<string, unknown> = Record<string, unknown>>(content: string): { frontmatter: T; body: string } {
  try {
    const parsed = pigParseFrontmatter(content);
    return { frontmatter: parsed.fields as T, body: parsed.body };
  } catch {
    return { frontmatter: {} as T, body: splitFrontmatter(content).body };
  }
}

export function stripFrontmatter(content: string): string {
  return splitFrontmatter(content).body;
}

/** A rough count (four characters a token), as upstream estimates for display. */
export function estimateTokens(message: unknown): number {
  return Math.ceil(JSON.stringify(message ?? "").length / 4);
}

export function createEventBus(): EventBus {
  return new LocalBus(() => {}).api();
}

// TUI components of the coding agent: loadable stand-ins (pig never mounts them).
export class CustomEditor extends Editor {}
export class DynamicBorder extends Container {
  constructor(..._args: unknown[]) {
    super();
  }
}
export class BorderedLoader extends Loader {
  readonly signal = new AbortController().signal;
  onAbort?: () => void;
  constructor(..._args: unknown[]) {
    super();
  }
}
