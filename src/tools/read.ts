/**
 * `read`: a text file's lines (a window of them with offset/limit, cut to the output limits with a
 * notice that says how to continue), an image as an attachment, or what a file that is not text
 * is (tools/file-kind.ts) instead of its bytes.
 */
import { constants } from "node:fs";
import { asyncFs } from "../util/async-fs.ts";
import * as v from "valibot";
import { abortable, throwIfAborted } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { nonTextKind, notTextNote } from "./file-kind.ts";
import { detectImageMime, dimensionNote, IMAGE_SNIFF_BYTES, prepareImage, type ImageMime } from "./image.ts";
import { resolveReadPath } from "./paths.ts";
import { argument, extra, numberArgument, pathArgument } from "./presentation.ts";
import { byteLength, DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";
import type { ToolContent, ToolContext, ToolResult } from "./types.ts";

export interface ReadDetails {
  truncation?: TruncationResult;
}

export interface ReadToolOptions {
  /** Scale images down to what providers accept inline (setting `images.autoResize`, default on). */
  autoResizeImages?: boolean;
}

const ReadArguments = () => v.object({
  path: v.pipe(v.string(), v.description("Path to the file to read (relative or absolute)")),
  offset: v.optional(v.pipe(v.number(), v.description("Line number to start reading from (1-indexed)"))),
  limit: v.optional(v.pipe(v.number(), v.description("Maximum number of lines to read"))),
});
export type ReadArgs = v.InferOutput<ReturnType<typeof ReadArguments>>;

const IMAGE_OMITTED = "[Image omitted: could not be resized below the inline image size limit.]";
const NO_VISION = "[Current model does not support images. The image will be omitted from this request.]";

async function readImage(bytes: Buffer, mime: ImageMime, autoResize: boolean, context: ToolContext): Promise<ToolContent[]> {
  const prepared = autoResize ? await prepareImage(bytes, mime) : { data: bytes.toString("base64"), mimeType: mime };
  if (!prepared) return [{ type: "text", text: `Read image file [${mime}]\n${IMAGE_OMITTED}` }];
  let text = `Read image file [${prepared.mimeType}]`;
  const note = dimensionNote(prepared);
  if (note) text += `\n${note}`;
  if (context.model && !context.model.input.includes("image")) text += `\n${NO_VISION}`;
  return [
    { type: "text", text },
    { type: "image", data: prepared.data, mimeType: prepared.mimeType },
  ];
}

function readText(content: string, args: ReadArgs): ToolResult<ReadDetails | undefined> {
  const lines = content.split("\n");
  const start = args.offset ? Math.max(0, args.offset - 1) : 0;
  if (start >= lines.length) {
    throw new Error(`Offset ${args.offset} is beyond end of file (${lines.length} lines total)`);
  }
  const end = args.limit !== undefined ? Math.min(start + args.limit, lines.length) : lines.length;
  const truncation = truncateHead(lines.slice(start, end).join("\n"));
  const first = start + 1;
  const text = (value: string) => [{ type: "text" as const, text: value }];

  if (truncation.firstLineExceedsLimit) {
    const size = formatSize(byteLength(lines[start] ?? ""));
    return {
      content: text(
        `[Line ${first} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${args.path} | head -c ${DEFAULT_MAX_BYTES}]`,
      ),
      details: { truncation },
    };
  }
  if (truncation.truncated) {
    const last = first + truncation.outputLines - 1;
    const limitNote = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
    return {
      content: text(
        `${truncation.content}\n\n[Showing lines ${first}-${last} of ${lines.length}${limitNote}. Use offset=${last + 1} to continue.]`,
      ),
      details: { truncation },
    };
  }
  if (end < lines.length && args.limit !== undefined) {
    return {
      content: text(`${truncation.content}\n\n[${lines.length - end} more lines in file. Use offset=${end + 1} to continue.]`),
      details: undefined,
    };
  }
  return { content: text(truncation.content), details: undefined };
}

export const readTool = defineBuiltinTool({
  name: "read",
  description:
    "Show a file's contents. Text files come back as plain lines (no line numbers), at most 2000 lines or 50KB per call, whichever comes first; a notice then gives the offset to continue from, so call again with offset (and limit) until you have what you need. Images (jpg, png, gif, webp) are returned as attachments; other files that are not text are described (type and size), not shown.",
  arguments: ReadArguments,
  constrainedSampling: { type: "json_schema", strict: "prefer" },
  promptSnippet: "Read file contents",
  promptGuidelines: ["Use read to examine files instead of cat or sed."],
  presentation: {
    summary(args) {
      const offset = args.value("offset");
      const limit = args.value("limit");
      const range = offset !== undefined ? `:${String(offset)}${limit !== undefined ? `+${String(limit)}` : ""}` : "";
      return `${args.text("path") ?? ""}${range}`;
    },
    keep: "head",
    output: "text",
    exportCall(args) {
      const path = pathArgument(args);
      if (path === undefined) return undefined;
      const offset = numberArgument(args, "offset");
      const limit = numberArgument(args, "limit");
      const range = offset || limit ? [extra(`lines ${offset ?? 1}${limit ? `–${(offset ?? 1) + limit - 1}` : "–"}`)] : [];
      return { head: [argument(path), ...range] };
    },
  },
  execute(_id, args, signal, _onUpdate, context, options: ReadToolOptions): Promise<ToolResult<ReadDetails | undefined>> {
    const autoResize = options.autoResizeImages ?? true;
    return abortable(signal, async () => {
      const path = resolveReadPath(args.path, context.cwd);
      await asyncFs().access(path, constants.R_OK);
      throwIfAborted(signal);
      // One read serves both the image check and the text.
      const bytes = await asyncFs().readFile(path);
      throwIfAborted(signal);
      const mime = detectImageMime(bytes.subarray(0, IMAGE_SNIFF_BYTES));
      if (mime) return { content: await readImage(bytes, mime, autoResize, context), details: undefined };
      const nonText = nonTextKind(bytes);
      if (nonText) return { content: [{ type: "text", text: notTextNote(args.path, nonText, bytes.length) }], details: undefined };
      return readText(bytes.toString("utf8"), args);
    });
  },
});

export const createReadTool = (options: ReadToolOptions = {}) => readTool.create(options);
