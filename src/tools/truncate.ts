/**
 * Output limits shared by every tool: the model sees at most 2000 lines or 50 KB of one result,
 * cut from the head (read, grep, find, ls) or from the tail (bash). Lines are `split("\n")`, so a
 * trailing newline counts as a final empty line; bytes are UTF-8.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

/** Reported as `details.truncation`; the key order is part of the wire format. */
export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Tail mode only: the kept text starts inside the last line (that line alone was too big). */
  lastLinePartial: boolean;
  /** Head mode only: the first line alone is over the byte limit, so nothing was kept. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

export interface TruncationLimits {
  maxLines?: number;
  maxBytes?: number;
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** `<1024` as bytes, below 1 MiB as KB with one decimal, else MB with one decimal. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function result(
  content: string,
  fields: Pick<TruncationResult, "truncatedBy" | "totalLines" | "totalBytes" | "outputLines"> &
    Partial<Pick<TruncationResult, "lastLinePartial" | "firstLineExceedsLimit">>,
  maxLines: number,
  maxBytes: number,
): TruncationResult {
  return {
    content,
    truncated: fields.truncatedBy !== null,
    truncatedBy: fields.truncatedBy,
    totalLines: fields.totalLines,
    totalBytes: fields.totalBytes,
    outputLines: fields.outputLines,
    outputBytes: byteLength(content),
    lastLinePartial: fields.lastLinePartial ?? false,
    firstLineExceedsLimit: fields.firstLineExceedsLimit ?? false,
    maxLines,
    maxBytes,
  };
}

/** The lines a text is counted in (Pi ≥ 0.87): a final line break ends the last line, it does not start another. */
function countedLines(content: string): string[] {
  if (content === "") return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}

/** The limits in force and the content's size; `whole` is the result when it already fits. */
function measure(content: string, limits: TruncationLimits) {
  const maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = countedLines(content);
  const totalLines = lines.length;
  const fits = totalLines <= maxLines && totalBytes <= maxBytes;
  const whole = fits ? result(content, { truncatedBy: null, totalLines, totalBytes, outputLines: totalLines }, maxLines, maxBytes) : undefined;
  return { maxLines, maxBytes, totalBytes, lines, totalLines, whole };
}

/** Keeps whole lines from the top. */
export function truncateHead(content: string, limits: TruncationLimits = {}): TruncationResult {
  const { maxLines, maxBytes, totalBytes, lines, totalLines, whole } = measure(content, limits);
  if (whole) return whole;
  if (byteLength(lines[0] ?? "") > maxBytes) {
    return result(
      "",
      { truncatedBy: "bytes", totalLines, totalBytes, outputLines: 0, firstLineExceedsLimit: true },
      maxLines,
      maxBytes,
    );
  }
  let used = 0;
  let count = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (const line of lines) {
    if (count >= maxLines) break;
    const cost = byteLength(line) + (count > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    used += cost;
    count++;
  }
  return result(lines.slice(0, count).join("\n"), { truncatedBy, totalLines, totalBytes, outputLines: count }, maxLines, maxBytes);
}

/** Keeps whole lines from the bottom; a last line that alone is too big keeps its last bytes. */
export function truncateTail(content: string, limits: TruncationLimits = {}): TruncationResult {
  const { maxLines, maxBytes, totalBytes, lines, totalLines, whole } = measure(content, limits);
  if (whole) return whole;
  let used = 0;
  let start = lines.length;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (start > 0 && lines.length - start < maxLines) {
    const line = lines[start - 1] ?? "";
    const cost = byteLength(line) + (start < lines.length ? 1 : 0);
    if (used + cost > maxBytes) {
      truncatedBy = "bytes";
      if (start === lines.length) {
        const partial = lastBytes(line, maxBytes);
        return result(
          partial,
          { truncatedBy, totalLines, totalBytes, outputLines: 1, lastLinePartial: true },
          maxLines,
          maxBytes,
        );
      }
      break;
    }
    used += cost;
    start--;
  }
  return result(
    lines.slice(start).join("\n"),
    { truncatedBy, totalLines, totalBytes, outputLines: lines.length - start },
    maxLines,
    maxBytes,
  );
}

/** The longest suffix of `text` that fits in `maxBytes`, never starting inside a UTF-8 sequence. */
function lastBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  // Continuation bytes look like 10xxxxxx; move forward to the next character start.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

/** Cuts one line to `maxChars` characters, marking the cut. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}
