/**
 * A tools/call result as the model gets it, by upstream Pi 1.6.0's mapping: text and images
 * pass; an embedded text resource is its text, an embedded image an image, another binary
 * resource is saved to a private file the result names; audio and unknown blocks become a short
 * placeholder; a resource link names its URI. A result with no blocks but `structuredContent`
 * is that JSON. Text over 20 KB keeps its start and end around a `…N chars truncated…` marker,
 * and the whole text is saved to a file the model can read.
 */
import { closeSync, writeSync } from "node:fs";
import type { ToolContent } from "../tools/types.ts";
import type { SpillFiles } from "../tools/spill-files.ts";
import type { CallToolResult, ContentBlock } from "./protocol.ts";

/** Model-facing text beyond this is cut in the middle. */
export const MCP_OUTPUT_MAX_BYTES = 20 * 1024;

export interface McpToolOutput {
  content: ToolContent[];
  details: { server: string; tool: string; fullOutputPath?: string; structuredContent?: unknown };
  isError: boolean;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml)$)|\+(json|xml)$/;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}MB`;
}

function saveBytes(spill: SpillFiles, data: Uint8Array): string {
  const file = spill.open("tool");
  try {
    writeSync(file.fd, data);
  } finally {
    closeSync(file.fd);
  }
  return file.path;
}

function blockContent(block: ContentBlock, spill: SpillFiles): ToolContent {
  const b = block as Record<string, unknown> & { type: string };
  switch (b.type) {
    case "text":
      return { type: "text", text: String(b.text) };
    case "image":
      return { type: "image", data: String(b.data), mimeType: String(b.mimeType) };
    case "audio":
      return { type: "text", text: `[audio ${String(b.mimeType)} omitted]` };
    case "resource_link": {
      const details = [b.mimeType].filter((x): x is string => typeof x === "string");
      const description = typeof b.description === "string" ? `: ${b.description}` : "";
      return { type: "text", text: `[Resource ${String(b.uri)} "${String(b.title ?? b.name)}"${details.length > 0 ? ` (${details.join(", ")})` : ""}${description}]` };
    }
    case "resource": {
      const resource = b.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (typeof resource.text === "string") return { type: "text", text: resource.text };
      const blob = resource.blob ?? "";
      if (resource.mimeType?.startsWith("image/")) return { type: "image", data: blob, mimeType: resource.mimeType };
      const data = Buffer.from(blob, "base64");
      if (resource.mimeType && TEXT_TYPES.test(resource.mimeType.split(";", 1)[0]!.trim().toLowerCase())) return { type: "text", text: data.toString("utf8") };
      const kind = `${resource.mimeType ?? "unknown type"}, ${formatBytes(data.length)}`;
      try {
        return { type: "text", text: `[Binary resource ${resource.uri} (${kind}) saved to ${saveBytes(spill, data)}]` };
      } catch (error) {
        return { type: "text", text: `[Binary resource ${resource.uri} (${kind}) could not be saved: ${(error as Error).message}]` };
      }
    }
    default:
      return { type: "text", text: `[unsupported MCP content ${b.type}]` };
  }
}

/**
 * The start and the end of `text`, half of `maxBytes` each, around a marker of what was cut;
 * undefined when it fits. Cuts fall between characters.
 */
export function truncateMiddle(text: string, maxBytes: number): { text: string; totalBytes: number; totalLines: number } | undefined {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return undefined;
  const isStart = (i: number) => i >= buf.length || (buf[i]! & 0xc0) !== 0x80;
  let headEnd = Math.floor(maxBytes / 2);
  while (headEnd > 0 && !isStart(headEnd)) headEnd--;
  let tailStart = buf.length - (maxBytes - Math.floor(maxBytes / 2));
  while (tailStart < buf.length && !isStart(tailStart)) tailStart++;
  const removed = Array.from(buf.subarray(headEnd, tailStart).toString("utf8")).length;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { text: `${buf.subarray(0, headEnd).toString("utf8")}…${removed} chars truncated…${buf.subarray(tailStart).toString("utf8")}`, totalBytes: buf.length, totalLines: lines };
}

export function toToolOutput(server: string, tool: string, result: CallToolResult, spill: SpillFiles): McpToolOutput {
  let content = result.content.map((block) => blockContent(block, spill));
  if (content.length === 0 && result.structuredContent !== undefined) content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  const isError = result.isError === true;
  const textOf = (blocks: readonly ToolContent[]) => blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
  if (isError && textOf(content) === "") content.push({ type: "text", text: `MCP tool ${server}/${tool} returned an error` });
  const details: McpToolOutput["details"] = { server, tool, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}) };
  const combined = textOf(content);
  const cut = truncateMiddle(combined, MCP_OUTPUT_MAX_BYTES);
  if (cut) {
    let where: string;
    try {
      details.fullOutputPath = spill.write(combined, "tool");
      where = `\n\n[Full output: ${details.fullOutputPath} (read it with offset/limit)]`;
    } catch (error) {
      where = `\n\n[Could not save the full output: ${(error as Error).message}]`;
    }
    const header = `Warning: truncated output (original token count: ${Math.ceil(cut.totalBytes / 4)})\nTotal output lines: ${cut.totalLines}\n\n`;
    content = [{ type: "text", text: `${header}${cut.text}${where}` }, ...content.filter((b) => b.type === "image")];
  }
  return { content, details, isError };
}
