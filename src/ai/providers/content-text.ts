/**
 * The text rules every API's message conversion shares, as upstream Pi applies them: unpaired
 * UTF-16 surrogates are dropped, and a model without image input gets a placeholder text for each
 * run of images (the same words on every wire, so a conversation reads the same after a switch).
 */
import type { LlmImage, LlmText } from "../types.ts";

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
export const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
/** The text of a tool result that holds only images (APIs that need a text in every result). */
export const IMAGE_ONLY_RESULT_TEXT = "(see attached image)";

// ES2024's String.prototype.isWellFormed (the lib the project compiles against is ES2023).
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Drops unpaired UTF-16 surrogates (they make the request body invalid for strict JSON parsers). */
export function stripLoneSurrogates(text: string): string {
  // Nearly every text is well formed, and the engine tells that far faster than the pattern
  // finds nothing: a long conversation's request no longer scans every text with it.
  if (isWellFormed?.call(text)) return text;
  return text.replace(LONE_SURROGATES, "");
}

/** Images replaced by `placeholder` (once per run of images) for a model without image input. */
export function withoutImages<T extends LlmText | LlmImage>(content: readonly T[], placeholder: string): (T | LlmText)[] {
  const out: (T | LlmText)[] = [];
  let afterPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!afterPlaceholder) out.push({ type: "text", text: placeholder });
      afterPlaceholder = true;
      continue;
    }
    out.push(block);
    afterPlaceholder = (block as LlmText).text === placeholder;
  }
  return out;
}
