/**
 * What the listing tools (ls, find, grep) return: their lines cut to the output limit (50 KB),
 * then in brackets the notices that say what was left out: the tool's own limit first, then the
 * cut, then any other.
 */
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";
import type { ToolResult } from "./types.ts";

/** A notice for the model and what it adds to the result's details. */
export interface ListingNotice<D> {
  text: string;
  details: Partial<D>;
}

export function listingResult<D extends { truncation?: TruncationResult }>(
  output: string,
  limitNotice: ListingNotice<D> | undefined,
  otherNotice?: ListingNotice<D>,
): ToolResult<D | undefined> {
  const truncation = truncateHead(output, { maxLines: Number.MAX_SAFE_INTEGER });
  const details: Partial<D> = {};
  const notices: string[] = [];
  const add = (notice: ListingNotice<D> | undefined) => {
    if (!notice) return;
    notices.push(notice.text);
    Object.assign(details, notice.details);
  };
  add(limitNotice);
  if (truncation.truncated) add({ text: `${formatSize(DEFAULT_MAX_BYTES)} limit reached`, details: { truncation } as Partial<D> });
  add(otherNotice);
  const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? (details as D) : undefined };
}
